import { postJson } from './http.ts';
import { mailbox, type OutgoingMail, type Sent, type Transport } from './transport.ts';

export function postmarkTransport(baseUrl: string, serverToken: string): Transport {
  return async (mail: OutgoingMail, signal: AbortSignal): Promise<Sent> => {
    const body = {
      From: mailbox(mail.from.address, mail.from.name),
      To: mail.to,
      Subject: mail.subject,
      TextBody: mail.text,
      HtmlBody: mail.html,
      ...(mail.replyTo === null ? {} : { ReplyTo: mail.replyTo }),
      Headers: [{ Name: 'Message-ID', Value: mail.messageId }],
      MessageStream: 'outbound',
    };
    await postJson('postmark', `${baseUrl}/email`, { 'x-postmark-server-token': serverToken }, JSON.stringify(body), signal);
    return { note: null };
  };
}
