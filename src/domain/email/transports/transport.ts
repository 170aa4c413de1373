export interface OutgoingMail {
  /** The same on every attempt, so that a mail sent twice after a crash reads as one to its receiver. */
  readonly messageId: string;
  readonly deliveryId: string;
  readonly from: { readonly address: string; readonly name: string | null };
  readonly replyTo: string | null;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** Why nothing left the service, when nothing did. */
export interface Sent {
  readonly note: string | null;
}

/** `permanent` (a 4xx, an SMTP 5xx, bad credentials) fails the mail at once; anything else is retried. */
export class DeliveryError extends Error {
  readonly permanent: boolean;
  /** The service's own words, then what the provider (or a library talking to it) answered, which may echo a secret. */
  readonly ours: string;
  readonly theirs: string;

  constructor(ours: string, permanent: boolean, theirs = '') {
    super(`${ours}${theirs}`);
    this.permanent = permanent;
    this.ours = ours;
    this.theirs = theirs;
  }
}

/** `signal` aborts at the attempt's deadline or when the worker stops: the transport then lets go of its connection. */
export type Transport = (mail: OutgoingMail, signal: AbortSignal) => Promise<Sent>;

/** The name is one line: provider.ts checks it. */
export function mailbox(address: string, name: string | null): string {
  return name === null ? address : `"${name.replace(/["\\]/g, '\\$&')}" <${address}>`;
}
