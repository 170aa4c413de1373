/** A rendered mail as every transport sends it. */
export interface OutgoingMail {
  /** The same on every attempt (`<id@host>`), so that a mail sent twice after a crash reads as one to its receiver. */
  readonly messageId: string;
  /** The outbox row's id: an idempotency key for the providers that take one. */
  readonly deliveryId: string;
  readonly from: { readonly address: string; readonly name: string | null };
  readonly replyTo: string | null;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** What a sent mail leaves in its row beside `sent`: why nothing left the service, when nothing did. */
export interface Sent {
  readonly note: string | null;
}

/**
 * A failed attempt. `permanent` (the provider refused the mail: a 4xx, an SMTP 5xx, bad credentials) ends the mail as
 * `failed` at once; otherwise (a 5xx, an SMTP 4xx, a timeout, a refused connection) it is retried.
 */
export class DeliveryError extends Error {
  readonly permanent: boolean;

  constructor(message: string, permanent: boolean) {
    super(message);
    this.permanent = permanent;
  }
}

/** One way out of the service: resolves once the provider has accepted the mail, throws DeliveryError otherwise. */
export type Transport = (mail: OutgoingMail, signal: AbortSignal) => Promise<Sent>;

/** An RFC 5322 address with its display name, quoted (the name is one line: provider.ts checks it). */
export function mailbox(address: string, name: string | null): string {
  return name === null ? address : `"${name.replace(/["\\]/g, '\\$&')}" <${address}>`;
}
