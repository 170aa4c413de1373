import { createHash, randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '../src/auth/password-hash.ts';
import { CookieJar, type Visit } from '../test/support/cookie-jar.ts';
import { fetchVia } from '../test/support/host-fetch.ts';

/** Where the sign-ins go: the service process, or an in-process app (statement counts). */
export interface SignInService {
  readonly baseUrl: string;
  /** An `app_admin` key of the application the client and users are made in. */
  readonly apiKey: string;
  /** CPU time the service has used so far (ms), when it is measured. */
  readonly cpuMs?: () => Promise<number>;
  /** The worst event-loop delay in the service since the last call (ms), when it is measured. */
  readonly loopDelayMs?: () => Promise<number>;
}

const REDIRECT_URI = 'https://bench.example/callback';
export const BENCH_PASSWORD = 'Bench-Password-9';

/** N operations, `concurrency` at a time: their rate over the whole batch and each one's latency. */
export interface BatchFigures {
  readonly label: string;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly count: number;
  readonly failures: number;
  /** CPU time per operation: of the bench process (raw), of the service process (hosted); undefined when unknown. */
  readonly cpuMs: number | undefined;
  /** The worst event-loop delay in the service during the batch; undefined when no service ran it (raw). */
  readonly loopMaxMs: number | undefined;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
/** Milliseconds to one decimal. */
const ms = (value: number) => Math.round(value * 10) / 10;

const ownCpuMs = async () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export async function batch(
  label: string,
  count: number,
  concurrency: number,
  operation: (i: number) => Promise<boolean>,
  cpuMs: (() => Promise<number>) | undefined,
  loopDelayMs?: () => Promise<number>,
): Promise<BatchFigures> {
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  await loopDelayMs?.();
  const cpuBefore = await cpuMs?.();
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
  const cpu = cpuBefore === undefined ? undefined : ((await cpuMs!()) - cpuBefore) / count;
  const loopMaxMs = await loopDelayMs?.();
  latencies.sort((a, b) => a - b);
  return { label, perSecond: count / seconds, p50: ms(percentile(latencies, 50)), p99: ms(percentile(latencies, 99)), count, failures, cpuMs: cpu, loopMaxMs };
}

/**
 * Raw Argon2id: the service's own `verifyPassword` (same parameters, same bound on concurrent jobs), in this process,
 * against a hash it made itself, `concurrency` callers at a time.
 */
async function rawVerifies(count: number, concurrency: number): Promise<BatchFigures> {
  const stored = await hashPassword(BENCH_PASSWORD);
  await verifyPassword(stored, BENCH_PASSWORD);
  return batch('raw Argon2id verify (bench process)', count, concurrency, () => verifyPassword(stored, BENCH_PASSWORD), ownCpuMs);
}

/** A sign-in made ready up to its form: authorize (code + PKCE S256), then the hosted page with its CSRF token. */
export interface Prepared {
  readonly jar: CookieJar;
  readonly page: Visit;
  readonly verifier: string;
}

/** A prepared sign-in's form, posted with these credentials: the service's answer to the POST. */
type Attempt = (i: number, email: string, password: string) => Promise<Visit>;

/**
 * `count` sign-ins made ready up to their form (an interaction is good for one sign-in), for `users` users with a
 * password in a new tenant `purpose` (its users' e-mails start with it) of a new web client's application; `signIn(i)` then posts the i-th form with its user's
 * credentials and follows the redirects until the browser is sent to the client: true when it gets a code.
 * `attempt` posts the i-th form with other credentials.
 */
export async function prepareSignIns(
  service: SignInService,
  count: number,
  users: number,
  purpose: string,
): Promise<{
  signIn: (i: number) => Promise<boolean>;
  attempt: Attempt;
  emails: readonly string[];
  tokens: (i: number) => Promise<Record<string, string>>;
  /** The i-th sign-in's browser and form, for another method than the password. */
  prepared: (i: number) => Prepared;
}> {
  const headers = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${service.baseUrl}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, any>;
  };
  const client = await post('/oauth-clients', { name: `Bench ${purpose}`, type: 'web', redirectUris: [REDIRECT_URI] });
  const tenant = await post(`/applications/${client['applicationId']}/tenants`, { name: `Bench ${purpose}` });
  const emails = Array.from({ length: users }, (_, i) => `${purpose}-${i}@bench.example`);
  for (const email of emails) await post('/users', { email, password: BENCH_PASSWORD, tenantId: tenant['id'] });

  const prepare = async (): Promise<Prepared> => {
    // node:http (kept-alive connections) rather than fetch: the load generator shares the two cores with the service,
    // and a sign-in cost it 3.0 ms of CPU over fetch against 2.0 ms over node:http (measured), CPU the service loses.
    const jar = new CookieJar(fetchVia(service.baseUrl));
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
    return { jar, page, verifier };
  };
  const prepared: Prepared[] = [];
  for (let i = 0; i < count; i += 1) prepared.push(await prepare());
  const attempt: Attempt = (i, email, password) => prepared[i]!.jar.submit(prepared[i]!.page, { email, password });

  return {
    async signIn(i) {
      const out = await prepared[i]!.jar.followOut(await attempt(i, emails[i % emails.length]!, BENCH_PASSWORD), service.baseUrl);
      return out.href.startsWith(REDIRECT_URI) && out.searchParams.get('code') !== null;
    },
    attempt,
    emails,
    prepared: (i) => prepared[i]!,
    /** The i-th sign-in through to its tokens: the code redeemed by the web client (its secret, basic). */
    async tokens(i) {
      const out = await prepared[i]!.jar.followOut(await attempt(i, emails[i % emails.length]!, BENCH_PASSWORD), service.baseUrl);
      const basic = Buffer.from(`${encodeURIComponent(client['clientId'])}:${encodeURIComponent(client['clientSecret'])}`).toString('base64');
      const response = await fetch(`${service.baseUrl}/oauth2/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: out.searchParams.get('code') ?? '', redirect_uri: REDIRECT_URI, code_verifier: prepared[i]!.verifier }),
      });
      if (response.status !== 200) throw new Error(`redeeming the code: ${response.status} ${await response.text()}`);
      return (await response.json()) as Record<string, string>;
    },
  };
}

/** Hosted sign-ins beside their physical baseline, measured moments apart on the same machine. */
export interface PairedSignIns {
  readonly raw: BatchFigures;
  readonly hosted: BatchFigures;
}

/**
 * Hosted password sign-ins, prepared beforehand (prepareSignIns); what is timed is the form's POST and the redirects
 * that follow it, until the browser is sent to the client with a code: the credential check (one Argon2id
 * verification) and the OP issuing the code. One user per concurrent sign-in, so that they do not queue on one
 * account's row. Between the preparation (and `count` untimed sign-ins) and the timed ones, with the service idle, the
 * raw Argon2id batch: whatever else the machine is doing then weighs on both.
 */
export async function pairedSignIns(service: SignInService, count: number, concurrency: number): Promise<PairedSignIns> {
  const { signIn } = await prepareSignIns(service, 2 * count, concurrency, 'sign-ins');
  // As many sign-ins first, untimed: the timed ones run on compiled code, as in a service that has been up a while.
  await batch('warm-up', count, concurrency, signIn, undefined);
  const raw = await rawVerifies(count, concurrency);
  const hosted = await batch('hosted sign-in: login POST → code', count, concurrency, (i) => signIn(count + i), service.cpuMs, service.loopDelayMs);
  return { raw, hosted };
}

/** Each kind of refused sign-in's latency, over one run of them taken in turns. */
export interface RefusalFigures {
  readonly label: string;
  readonly p50: number;
  readonly p99: number;
  readonly count: number;
  /** Answers other than the refusal page (400). */
  readonly failures: number;
  /** The worst event-loop delay in the service during the run (the kinds take turns: the same for each). */
  readonly loopMaxMs: number | undefined;
}

/**
 * Refused sign-ins one at a time, taking turns: an unknown e-mail, then a wrong password for a known user, `count` of
 * each, with the lockout policy on (room made for every failure: no address is locked out or made to wait meanwhile). The wrong password
 * writes its failure count; the unknown e-mail writes nothing and waits instead (src/domain/sign-in/refusal-timing.ts), so
 * the two should take about as long: otherwise the time tells which e-mails have accounts.
 */
export async function refusalTimings(service: SignInService, count: number): Promise<RefusalFigures[]> {
  // Two failures per user from the bench's one address: each is counted, none locks or waits (src/domain/sign-in/lockout.ts).
  const users = Math.ceil(count / 2);
  const { attempt, emails } = await prepareSignIns(service, 2 * count, users, 'refusals');
  const policy = await fetch(`${service.baseUrl}/api/v1/policies/lockout`, {
    method: 'PUT',
    headers: { 'x-api-key': service.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ enabled: true, maxAttempts: 100, resetAfterMinutes: 60 }),
  });
  if (policy.status !== 200) throw new Error(`lockout policy: ${policy.status} ${await policy.text()}`);
  const kinds = [
    { label: 'refused: unknown e-mail (writes nothing)', credentials: (i: number) => [`nobody-${i}@bench.example`, BENCH_PASSWORD] as const },
    { label: 'refused: wrong password (counts the failure)', credentials: (i: number) => [emails[i % users]!, 'Wrong-Password-9'] as const },
  ];
  const latencies = kinds.map(() => [] as number[]);
  const failures = kinds.map(() => 0);
  await service.loopDelayMs?.();
  for (let i = 0; i < count; i += 1) {
    for (const [k, kind] of kinds.entries()) {
      const [email, password] = kind.credentials(i);
      const begun = performance.now();
      const answer = await attempt(2 * i + k, email, password);
      latencies[k]!.push(performance.now() - begun);
      if (answer.status !== 400) failures[k]! += 1;
    }
  }
  const loopMaxMs = await service.loopDelayMs?.();
  return kinds.map(({ label }, k) => {
    const sorted = latencies[k]!.sort((a, b) => a - b);
    return { label, p50: ms(percentile(sorted, 50)), p99: ms(percentile(sorted, 99)), count, failures: failures[k]!, loopMaxMs };
  });
}
