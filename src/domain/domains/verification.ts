import { randomBytes } from 'node:crypto';

/** A TXT record `_gatehouse-challenge.<hostname>` holding the token (as ACME's dns-01, Auth0 and Vercel do). */
export type ResolveTxt = (name: string) => Promise<string[][]>;

export const CHALLENGE_LABEL = '_gatehouse-challenge';

export function challengeRecordName(hostname: string): string {
  return `${CHALLENGE_LABEL}.${hostname}`;
}

export function newVerificationToken(): string {
  return `gatehouse-verification=${randomBytes(24).toString('base64url')}`;
}

export interface VerificationCheck {
  verified: boolean;
  /** In words an operator can act on; null when verified. */
  reason: string | null;
  /** False when the lookup itself failed (a timeout, SERVFAIL): no evidence either way. */
  answered: boolean;
}

const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

export async function checkVerificationRecord(hostname: string, token: string, resolveTxt: ResolveTxt): Promise<VerificationCheck> {
  const name = challengeRecordName(hostname);
  let records: string[][];
  try {
    records = await resolveTxt(name);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && ABSENT.has(code)) return { verified: false, reason: `No TXT record found at ${name}`, answered: true };
    return { verified: false, reason: `The DNS lookup of ${name} failed (${typeof code === 'string' ? code : 'error'}); try again later`, answered: false };
  }
  // A TXT record longer than 255 bytes arrives in chunks: the value is their concatenation.
  if (records.some((chunks) => chunks.join('') === token)) return { verified: true, reason: null, answered: true };
  return { verified: false, reason: `The TXT record at ${name} does not hold this domain's verification token`, answered: true };
}
