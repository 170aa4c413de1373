import { addressFor, asciiAddress, asciiMailbox } from './ascii-address.ts';
import { postJson } from './http.ts';
import { signV4 } from './sigv4.ts';
import type { OutgoingMail, Sent, Transport } from './transport.ts';

export interface SesCredentials {
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** SES takes 7-bit ASCII addresses only. */
const ascii = (address: string) => addressFor({ type: 'ses', name: 'SES' }, asciiAddress, address);

/** AWS answers a sending rate or daily quota reached with HTTP 400 `ThrottlingException` ("wait, then retry": SES's
 *  "Errors related to the sending quotas"); its error type is `x-amzn-ErrorType`'s, before any `:`. */
const THROTTLING = new Set(['ThrottlingException', 'Throttling', 'TooManyRequestsException']);
const throttled = (response: Response): boolean => THROTTLING.has((response.headers.get('x-amzn-errortype') ?? '').split(':')[0]!.trim());

/** `baseUrl` holds `{region}`. SES replaces Message-ID with its own; it is sent anyway, as every transport sends it. */
export function sesTransport(baseUrl: string, credentials: SesCredentials): Transport {
  return async (mail: OutgoingMail, signal: AbortSignal): Promise<Sent> => {
    const url = new URL(`${baseUrl.replaceAll('{region}', credentials.region)}/v2/email/outbound-emails`);
    const body = JSON.stringify({
      FromEmailAddress: asciiMailbox(ascii(mail.from.address), mail.from.name),
      Destination: { ToAddresses: [ascii(mail.to)] },
      ...(mail.replyTo === null ? {} : { ReplyToAddresses: [ascii(mail.replyTo)] }),
      Content: {
        Simple: {
          Subject: { Data: mail.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, Html: { Data: mail.html, Charset: 'UTF-8' } },
          Headers: [{ Name: 'Message-ID', Value: mail.messageId }],
        },
      },
    });
    const contentType = { 'content-type': 'application/json' };
    const signed = signV4({ method: 'POST', url, headers: contentType, body, service: 'ses', ...credentials, now: new Date() });
    await postJson('ses', url.href, { ...contentType, ...signed }, body, signal, throttled);
    return { note: null };
  };
}
