import type { CookieJar, Visit } from '../test/support/cookie-jar.ts';
import { totpCodeAt as codeAt } from '../test/support/totp.ts';
import { batch, BENCH_PASSWORD, prepareSignIns, type BatchFigures, type SignInService } from './sign-ins.ts';

const REDIRECT_URI = 'https://bench.example/callback';
const STEP_MS = 30_000;

/**
 * Hosted sign-ins with a TOTP second step: a new application's MFA policy `required` (TOTP only, no remembered
 * browser), each user enrolled first through the hosted enrolment (untimed; it warms the same routes); what is timed is
 * the password's POST, the MFA step's page, and its code's POST with the redirects that follow, until the browser is
 * sent to the client with a code. Each code is the next step's (within the ±1 window): the enrolment used the current
 * one, and a code works once.
 */
export async function totpSignIns(service: SignInService, count: number, concurrency: number): Promise<BatchFigures> {
  const { prepared, attempt, emails } = await prepareSignIns(service, 2 * count, count, 'totp');
  const mfaPolicy = async (method: string, body?: unknown) => {
    const response = await fetch(`${service.baseUrl}/api/v1/policies/mfa`, {
      method,
      headers: { 'x-api-key': service.apiKey, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (response.status !== 200) throw new Error(`${method} MFA policy: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const before = await mfaPolicy('GET');
  await mfaPolicy('PUT', { enforcement: 'required', factors: ['totp'], rememberDeviceDays: 0 });
  try {
    return await timedSignIns(service, count, concurrency, prepared, attempt, emails);
  } finally {
    // The application's other rows (run before and after) sign in with the password alone.
    await mfaPolicy('PUT', { enforcement: before['enforcement'], factors: before['factors'], rememberDeviceDays: before['rememberDeviceDays'] });
  }
}

type Prepared = Awaited<ReturnType<typeof prepareSignIns>>;

async function timedSignIns(service: SignInService, count: number, concurrency: number, prepared: Prepared['prepared'], attempt: Prepared['attempt'], emails: Prepared['emails']) {
  const secrets: string[] = [];
  const stepPage = async (i: number) => {
    const { jar } = prepared(i);
    const page = await within(jar, await attempt(i, emails[i % count]!, BENCH_PASSWORD), service.baseUrl);
    if (page.status !== 200) throw new Error(`MFA step: ${page.status} ${page.body.slice(0, 500)}`);
    return { jar, page };
  };
  await batch(
    'enrolment',
    count,
    concurrency,
    async (i) => {
      const { jar, page } = await stepPage(i);
      const secret = /<code>([A-Z2-7 ]+)<\/code>/.exec(page.body)?.[1]?.replaceAll(' ', '');
      if (secret === undefined) throw new Error(`no TOTP enrolment: ${page.body.slice(0, 500)}`);
      secrets[i] = secret;
      const codes = await jar.submit(page, { code: codeAt(secret, Date.now()) });
      const out = await jar.followOut(await jar.submit(codes, { action: 'continue' }), service.baseUrl);
      return out.href.startsWith(REDIRECT_URI);
    },
    undefined,
  );
  return batch(
    'hosted sign-in: password + TOTP → code',
    count,
    concurrency,
    async (i) => {
      const { jar, page } = await stepPage(count + i);
      const out = await jar.followOut(await jar.submit(page, { code: codeAt(secrets[i]!, Date.now() + STEP_MS) }), service.baseUrl);
      return out.href.startsWith(REDIRECT_URI) && out.searchParams.get('code') !== null;
    },
    service.cpuMs,
    service.loopDelayMs,
  );
}

/** Follows the service's own redirects from `visit` to the page they end on. */
async function within(jar: CookieJar, visit: Visit, origin: string): Promise<Visit> {
  for (let hops = 0; hops < 10 && (visit.status === 302 || visit.status === 303) && visit.location!.startsWith(`${origin}/`); hops += 1) {
    visit = await jar.visit(visit.location!);
  }
  return visit;
}
