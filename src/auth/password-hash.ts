import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { boundedConcurrency } from '../bounded-concurrency.ts';
import { inChildSpan } from '../observability/spans.ts';

/**
 * OWASP Password Storage Cheat Sheet's first Argon2id configuration; the PHC string carries its parameters, so they can
 * be raised later. `Algorithm` is an ambient const enum, which isolated modules cannot read: 2 is Argon2id.
 */
const ARGON2ID = 2 as Algorithm;
export const PASSWORD_HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Argon2 runs on libuv's 4-thread pool, shared with file, DNS and zlib work: a burst of sign-ins must neither fill it
 * nor hold N × 19 MiB at once, so one job per core, shared among the `processes` (WORKERS), at most 4.
 */
export function argon2Concurrency(processes: number): number {
  return Math.max(1, Math.min(Math.ceil(availableParallelism() / processes), 4));
}

let concurrency = argon2Concurrency(1);
const argon2 = boundedConcurrency(() => concurrency);

export function shareArgon2Among(processes: number): void {
  concurrency = argon2Concurrency(processes);
}

/** Its wait for the slot is the parent span's time. */
const bounded = <T>(name: string, job: () => Promise<T>): Promise<T> => argon2(() => inChildSpan(`argon2 ${name}`, job));

/** NIST SP 800-63B 5.1.1.2: composed or decomposed, full-width or not, the same characters are the same password. */
export const normalizePassword = (password: string): string => password.normalize('NFKC');

export function hashPassword(password: string): Promise<string> {
  return bounded('hash', () => hash(normalizePassword(password), PASSWORD_HASH_OPTIONS));
}

/** Constant-time inside argon2. Also tried as typed when the normal form fails: older hashes hold it un-normalized. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  const normal = normalizePassword(password);
  if (await bounded('verify', () => verify(storedHash, normal))) return true;
  return normal !== password && bounded('verify', () => verify(storedHash, password));
}

let dummy: Promise<string> | undefined;
const dummyHash = () => (dummy ??= hashPassword(randomBytes(32).toString('base64url')));

/** The first sign-in's timing would otherwise stand out. */
export async function prepareDummyHash(): Promise<void> {
  await dummyHash();
}

/** Takes as long as a wrong password would, against user enumeration by timing. Always false. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(await dummyHash(), password);
  return false;
}
