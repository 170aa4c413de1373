import { addressFor, asciiDomain } from './ascii-address.ts';
import { postJson } from './http.ts';
import { mailbox, type OutgoingMail, type Sent, type Transport } from './transport.ts';

/** Domains in Punycode; a local part that is not ASCII is Resend's to take or refuse. */
const domain = (address: string) => addressFor({ type: 'resend', name: 'Resend' }, asciiDomain, address);

/** 409 `concurrent_idempotent_requests`: an earlier attempt with the key still runs there, "try again later". Any other
 *  409 (the key reused with another payload) is final. */
function inProgress(response: Response, answer: string): boolean {
  if (response.status !== 409) return false;
  try {
    return (JSON.parse(answer) as { name?: unknown }).name === 'concurrent_idempotent_requests';
  } catch {
    return false;
  }
}

/** Its Idempotency-Key (the row's id) lets Resend drop a resend after a crash. */
export function resendTransport(baseUrl: string, apiKey: string): Transport {
  return async (mail: OutgoingMail, signal: AbortSignal): Promise<Sent> => {
    const body = {
      from: mailbox(domain(mail.from.address), mail.from.name),
      to: [domain(mail.to)],
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      ...(mail.replyTo === null ? {} : { reply_to: domain(mail.replyTo) }),
      headers: { 'Message-ID': mail.messageId },
    };
    const headers = { authorization: `Bearer ${apiKey}`, 'idempotency-key': mail.deliveryId };
    await postJson('resend', `${baseUrl}/emails`, headers, JSON.stringify(body), signal, inProgress);
    return { note: null };
  };
}
