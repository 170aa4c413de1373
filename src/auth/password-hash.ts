import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { inChildSpan } from '../spans.ts';

/**
 * User passwords: Argon2id with the OWASP Password Storage Cheat Sheet's first configuration (19 MiB, 2
 * iterations, 1 lane). The PHC string carries its own parameters, so they can be raised later and old hashes
 * still verify. `Algorithm` is an ambient const enum, which isolated modules cannot read: 2 is Argon2id.
 */
const ARGON2ID = 2 as Algorithm;
export const PASSWORD_HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * @node-rs/argon2 hashes on libuv's 4-thread pool, shared with file, DNS and zlib work. A burst of sign-ins must
 * neither fill it nor hold N × 19 MiB at once: at most one Argon2 job per core on the machine, shared among the
 * `processes` serving on it (WORKERS), at most 4; the rest wait here in order.
 */
export function argon2Concurrency(processes: number): number {
  return Math.max(1, Math.min(Math.ceil(availableParallelism() / processes), 4));
}

let concurrency = argon2Concurrency(1);
let running = 0;
const waiting: (() => void)[] = [];

/** Called once at start-up by each of the `processes` serving on this machine. */
export function shareArgon2Among(processes: number): void {
  concurrency = argon2Concurrency(processes);
}

/** Runs an Argon2 job when a slot is free, in a span of its own (its wait for the slot is the parent's time). */
async function bounded<T>(name: string, job: () => Promise<T>): Promise<T> {
  if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await inChildSpan(`argon2 ${name}`, job);
  } finally {
    // The slot passes straight to the next waiter (running stays the same), else it is freed.
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next();
  }
}

/**
 * Passwords are hashed and checked in Unicode NFKC (NIST SP 800-63B 5.1.1.2), so composed or decomposed, full-width
 * or not, the same characters are the same password on any device.
 */
export const normalizePassword = (password: string): string => password.normalize('NFKC');

export function hashPassword(password: string): Promise<string> {
  return bounded('hash', () => hash(normalizePassword(password), PASSWORD_HASH_OPTIONS));
}

/**
 * constant-time inside argon2: a wrong password must not reveal how close it was. A password that NFKC changes is
 * also tried as typed when its normal form fails: hashes written before passwords were normalized hold it as typed.
 */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  const normal = normalizePassword(password);
  if (await bounded('verify', () => verify(storedHash, normal))) return true;
  return normal !== password && bounded('verify', () => verify(storedHash, password));
}

let dummy: Promise<string> | undefined;
const dummyHash = () => (dummy ??= hashPassword(randomBytes(32).toString('base64url')));

/** Makes the dummy hash ahead of the first sign-in, whose timing would otherwise stand out. */
export async function prepareDummyHash(): Promise<void> {
  await dummyHash();
}

/**
 * For a sign-in whose e-mail matches no usable account: verify against a hash made with the same parameters, so
 * the answer takes as long as a wrong password would (user enumeration by timing). Always false.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(await dummyHash(), password);
  return false;
}
