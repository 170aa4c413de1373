import { createHash, randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '../src/auth/password-hash.ts';
import { CookieJar, type Visit } from '../test/support/cookie-jar.ts';
import type { ServiceProcess } from './service-process.ts';

const REDIRECT_URI = 'https://bench.example/callback';
const PASSWORD = 'Bench-Password-9';

/** N operations, `concurrency` at a time: their rate over the whole batch and each one's latency. */
export interface BatchFigures {
  readonly label: string;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly count: number;
  readonly failures: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function batch(label: string, count: number, concurrency: number, operation: (i: number) => Promise<boolean>): Promise<BatchFigures> {
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const begun = performance.now();
      const ok = await operation(i).catch((error: unknown) => (process.stderr.write(`${label}: ${String(error)}\n`), false));
      latencies.push(performance.now() - begun);
      if (!ok) failures += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const ms = (value: number) => Math.round(value * 10) / 10;
  return { label, perSecond: count / seconds, p50: ms(percentile(latencies, 50)), p99: ms(percentile(latencies, 99)), count, failures };
}

/**
 * Raw Argon2id: the service's own `verifyPassword` (same parameters, same bound on concurrent jobs), in this process,
 * against a hash it made itself, `concurrency` callers at a time.
 */
export async function rawVerifies(count: number, concurrency: number): Promise<BatchFigures> {
  const stored = await hashPassword(PASSWORD);
  await verifyPassword(stored, PASSWORD);
  return batch('raw Argon2id verify (bench process)', count, concurrency, () => verifyPassword(stored, PASSWORD));
}

/** A sign-in made ready up to its form: authorize (code + PKCE S256), then the hosted page with its CSRF token. */
interface Prepared {
  readonly jar: CookieJar;
  readonly page: Visit;
  readonly email: string;
}

/**
 * Hosted password sign-ins: `count` interactions are prepared beforehand (an interaction is good for one sign-in);
 * what is timed is the form's POST and the redirects that follow it, until the browser is sent to the client with a
 * code: the credential check (one Argon2id verification) and the OP issuing the code.
 */
export async function hostedSignIns(service: ServiceProcess, count: number, concurrency: number): Promise<BatchFigures> {
  const headers = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${service.baseUrl}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, any>;
  };
  const client = await post('/oauth-clients', { name: 'Bench web', type: 'web', redirectUris: [REDIRECT_URI] });
  const tenant = await post(`/applications/${client['applicationId']}/tenants`, { name: 'Bench sign-ins' });
  // One user per concurrent sign-in, so that they do not queue on one account's row.
  const emails = Array.from({ length: concurrency }, (_, i) => `signin-${i}@bench.example`);
  for (const email of emails) await post('/users', { email, password: PASSWORD, tenantId: tenant['id'] });

  const prepare = async (i: number): Promise<Prepared> => {
    const jar = new CookieJar();
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(`${service.baseUrl}/oauth2/authorize`);
    url.search = new URLSearchParams({
      client_id: client['clientId'],
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      scope: 'openid email',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: randomBytes(8).toString('base64url'),
    }).toString();
    const start = await jar.visit(url.href);
    if (start.location === undefined) throw new Error(`authorize: ${start.status} ${start.body.slice(0, 500)}`);
    const page = await jar.visit(start.location);
    if (page.status !== 200) throw new Error(`sign-in page: ${page.status} ${page.body.slice(0, 500)}`);
    return { jar, page, email: emails[i % emails.length]! };
  };
  const prepared: Prepared[] = [];
  for (let i = 0; i < count; i += 1) prepared.push(await prepare(i));

  return batch('hosted sign-in: login POST → code', count, concurrency, async (i) => {
    const { jar, page, email } = prepared[i]!;
    const posted = await jar.submit(page, { email, password: PASSWORD });
    const out = await jar.followOut(posted, service.baseUrl);
    return out.href.startsWith(REDIRECT_URI) && out.searchParams.get('code') !== null;
  });
}
