import { addressFor, asciiDomain } from './ascii-address.ts';
import { postJson } from './http.ts';
import { mailbox, type OutgoingMail, type Sent, type Transport } from './transport.ts';

/** Domains in Punycode; a local part that is not ASCII is Postmark's to take or refuse. */
const domain = (address: string) => addressFor({ type: 'postmark', name: 'Postmark' }, asciiDomain, address);

export function postmarkTransport(baseUrl: string, serverToken: string): Transport {
  return async (mail: OutgoingMail, signal: AbortSignal): Promise<Sent> => {
    const body = {
      From: mailbox(domain(mail.from.address), mail.from.name),
      To: domain(mail.to),
      Subject: mail.subject,
      TextBody: mail.text,
      HtmlBody: mail.html,
      ...(mail.replyTo === null ? {} : { ReplyTo: domain(mail.replyTo) }),
      Headers: [{ Name: 'Message-ID', Value: mail.messageId }],
      MessageStream: 'outbound',
    };
    await postJson('postmark', `${baseUrl}/email`, { 'x-postmark-server-token': serverToken }, JSON.stringify(body), signal);
    return { note: null };
  };
}
