import { isIP } from 'node:net';
import { createTransport, type Transporter } from 'nodemailer';
import { isPermanentResponseCode } from 'nodemailer/lib/errors.js';
import type { SmtpSecurity } from '../provider.ts';
import { resolveHost } from '../../address-guard.ts';
import { DeliveryError, mailbox, type OutgoingMail, type Sent, type Transport } from './transport.ts';

export interface SmtpTarget {
  readonly host: string;
  readonly port: number;
  readonly security: SmtpSecurity;
  readonly auth: { readonly user: string; readonly pass: string } | null;
}

export interface SmtpOptions {
  readonly timeoutMs: number;
  readonly ca: readonly string[] | undefined;
  /** For a server configured through the API: the checked address to connect to (publicAddressOf). */
  readonly resolveHost?: HostResolver;
  /** Every mail is DKIM-signed with it. */
  readonly dkim?: { readonly domainName: string; readonly keySelector: string; readonly privateKey: string };
  /** MAIL FROM: a verified sender domain's return path; else the From address. */
  readonly envelopeFrom?: string;
}

/** One address, so what the guard checked is what is reached. */
export type HostResolver = (host: string) => Promise<string>;

/** An internal address fails the mail at once; a name that does not resolve now is retried. */
export const publicAddressOf: HostResolver = async (host) => {
  const found = await resolveHost(host, 'none');
  if ('address' in found) return found.address;
  if ('unresolved' in found) throw new DeliveryError(`smtp: cannot resolve ${host} (${found.unresolved})`, false);
  throw new DeliveryError(
    `smtp: ${host} resolves to ${found.refused}, an internal address; the service does not connect there (EMAIL_ALLOW_PRIVATE_HOSTS)`,
    true,
  );
};

/** `smtp://` STARTTLS when offered, `smtps://` TLS; credentials in the URL. */
export function smtpUrlTarget(raw: string): SmtpTarget {
  const url = new URL(raw);
  const tls = url.protocol === 'smtps:';
  const user = decodeURIComponent(url.username);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (tls ? 465 : 587) : Number(url.port),
    security: tls ? 'tls' : url.searchParams.get('security') === 'none' ? 'none' : 'starttls',
    auth: user === '' ? null : { user, pass: decodeURIComponent(url.password) },
  };
}

/** The reply code decides, by nodemailer's rule (5xx permanent but 503, a session's state). With none, a login that
 *  cannot be tried and an envelope nodemailer refuses unsent would fail again unchanged; any failure to talk is retried. */
function failure(error: Error & { responseCode?: number; code?: string }): DeliveryError {
  if (error.responseCode !== undefined) return new DeliveryError('smtp: ', isPermanentResponseCode(error.responseCode), error.message);
  if (error.code === 'EENVELOPE') return new DeliveryError('smtp: the mail’s envelope was refused before sending (it cannot be sent as it is): ', true, error.message);
  return new DeliveryError('smtp: ', error.code === 'EAUTH', error.message);
}

function connection(target: SmtpTarget, host: string, options: SmtpOptions) {
  // TLS checks the name the administrator gave, also when the connection goes to the address it was checked at.
  const servername = host !== target.host && isIP(target.host) === 0 ? { servername: target.host } : {};
  const tls = { ...(options.ca === undefined ? {} : { ca: [...options.ca] }), ...servername };
  return {
    host,
    port: target.port,
    secure: target.security === 'tls',
    requireTLS: target.security === 'starttls',
    ignoreTLS: target.security === 'none',
    ...(target.auth === null ? {} : { auth: { user: target.auth.user, pass: target.auth.pass } }),
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    ...(Object.keys(tls).length === 0 ? {} : { tls }),
  };
}

/** `signal` takes the mail out of the pool's queue, or closes the connection sending it. */
async function send(transporter: Transporter, mail: OutgoingMail, options: SmtpOptions, signal: AbortSignal): Promise<Sent> {
  try {
    await transporter.sendMail({
      signal,
      ...(options.dkim === undefined ? {} : { dkim: { ...options.dkim } }),
      ...(options.envelopeFrom === undefined ? {} : { envelope: { from: options.envelopeFrom, to: mail.to } }),
      messageId: mail.messageId,
      from: mailbox(mail.from.address, mail.from.name),
      to: mail.to,
      ...(mail.replyTo === null ? {} : { replyTo: mail.replyTo }),
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    });
    return { note: null };
  } catch (error) {
    throw failure(error as Error);
  }
}

/** `starttls` requires the upgrade (no plain fallback). One connection per attempt: settings and credentials may change
 *  between mails, and a pooled connection would outlive them. */
export function smtpTransport(target: SmtpTarget, options: SmtpOptions): Transport {
  return async (mail: OutgoingMail, signal: AbortSignal): Promise<Sent> => {
    // Connects to the address that was checked, not to a second lookup's (DNS rebinding).
    const host = options.resolveHost === undefined ? target.host : await options.resolveHost(target.host);
    const transporter = createTransport(connection(target, host, options));
    try {
      return await send(transporter, mail, options, signal);
    } finally {
      transporter.close();
    }
  };
}


/** Fixed for the process's life, so pooled: a session per mail would cap the outbox at a few dozen mails a second. A
 *  connection per attempt under way, so that no attempt's deadline runs out while it waits for one. */
export function smtpPool(target: SmtpTarget, options: SmtpOptions, connections: number): { readonly transport: Transport; close(): void } {
  const transporter = createTransport({ ...connection(target, target.host, options), pool: true, maxConnections: connections, maxMessages: Infinity });
  return { transport: (mail, signal) => send(transporter, mail, options, signal), close: () => transporter.close() };
}
