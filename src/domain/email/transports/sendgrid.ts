import { addressFor, asciiAddress } from './ascii-address.ts';
import { postJson } from './http.ts';
import type { OutgoingMail, Sent, Transport } from './transport.ts';

/** SendGrid takes 7-bit ASCII addresses only (a name is its own field, in UTF-8). */
const ascii = (address: string) => addressFor({ type: 'sendgrid', name: 'SendGrid' }, asciiAddress, address);

export function sendgridTransport(baseUrl: string, apiKey: string): Transport {
  return async (mail: OutgoingMail, signal: AbortSignal): Promise<Sent> => {
    const body = {
      personalizations: [{ to: [{ email: ascii(mail.to) }] }],
      from: { email: ascii(mail.from.address), ...(mail.from.name === null ? {} : { name: mail.from.name }) },
      ...(mail.replyTo === null ? {} : { reply_to: { email: ascii(mail.replyTo) } }),
      subject: mail.subject,
      content: [
        { type: 'text/plain', value: mail.text },
        { type: 'text/html', value: mail.html },
      ],
      headers: { 'Message-ID': mail.messageId },
    };
    await postJson('sendgrid', `${baseUrl}/v3/mail/send`, { authorization: `Bearer ${apiKey}` }, JSON.stringify(body), signal);
    return { note: null };
  };
}
