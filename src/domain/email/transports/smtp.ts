import { isIP } from 'node:net';
import { createTransport, type Transporter } from 'nodemailer';
import type { SmtpSecurity } from '../provider.ts';
import type { HostResolver } from './address-guard.ts';
import { DeliveryError, mailbox, type OutgoingMail, type Sent, type Transport } from './transport.ts';

export interface SmtpTarget {
  readonly host: string;
  readonly port: number;
  readonly security: SmtpSecurity;
  readonly auth: { readonly user: string; readonly pass: string } | null;
}

export interface SmtpOptions {
  readonly timeoutMs: number;
  /** The certificates trusted: the system's and SMTP_CA_FILE's; undefined: Node's defaults. */
  readonly ca: readonly string[] | undefined;
  /** Set for a server configured through the API: the address to connect to, checked (address-guard.ts). */
  readonly resolveHost?: HostResolver;
  /** The sender domain's key, when it has one (sender-domain.ts): every mail is DKIM-signed with it. */
  readonly dkim?: { readonly domainName: string; readonly keySelector: string; readonly privateKey: string };
  /** The envelope sender (MAIL FROM) of a verified sender domain: its return path; else the From address. */
  readonly envelopeFrom?: string;
}

/** The SMTP server behind SMTP_URL (`smtp://` STARTTLS when offered, `smtps://` TLS), its credentials in the URL. */
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

/**
 * An SMTP reply decides: 5xx is permanent (the server refused the mail or the credentials), 4xx and every failure to
 * talk at all (refused, reset, timed out, TLS) are retried.
 */
function failure(error: Error & { responseCode?: number; code?: string }): DeliveryError {
  const permanent = error.code === 'EAUTH' || (error.responseCode !== undefined && error.responseCode >= 500);
  return new DeliveryError(`smtp: ${error.message}`, permanent);
}

/** nodemailer's connection settings for `target` at `host` (the address to connect to). */
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

async function send(transporter: Transporter, mail: OutgoingMail, options: SmtpOptions): Promise<Sent> {
  try {
    await transporter.sendMail({
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

/**
 * SMTP through nodemailer: `starttls` requires the upgrade (no plain fallback), `tls` is TLS from the first byte,
 * `none` never upgrades. One connection per attempt: a provider's settings and credentials may change between two
 * mails, and a pooled connection would outlive the ones it was opened with.
 */
export function smtpTransport(target: SmtpTarget, options: SmtpOptions): Transport {
  return async (mail: OutgoingMail): Promise<Sent> => {
    // Connects to the address that was checked, not to a second lookup's (DNS rebinding).
    const host = options.resolveHost === undefined ? target.host : await options.resolveHost(target.host);
    const transporter = createTransport(connection(target, host, options));
    try {
      return await send(transporter, mail, options);
    } finally {
      transporter.close();
    }
  };
}

/** Connections the built-in sender keeps open to SMTP_URL's server. */
export const POOL_CONNECTIONS = 5;

/**
 * The built-in sender's SMTP_URL: fixed for the process's life, so its connections are pooled and reused (an SMTP
 * session per mail would cap the outbox at a few dozen mails a second). `close` ends them.
 */
export function smtpPool(target: SmtpTarget, options: SmtpOptions): { readonly transport: Transport; close(): void } {
  const transporter = createTransport({ ...connection(target, target.host, options), pool: true, maxConnections: POOL_CONNECTIONS, maxMessages: Infinity });
  return { transport: (mail) => send(transporter, mail, options), close: () => transporter.close() };
}
