import { SoftAuthenticator, webauthnFormOf } from '../test/support/webauthn.ts';
import { batch, prepareSignIns, type BatchFigures, type SignInService } from './sign-ins.ts';

const REDIRECT_URI = 'https://bench.example/callback';
const PASSWORD = 'Bench-Password-9';

/**
 * Hosted passkey sign-ins: the application's `passkey` provider enabled and an MFA policy that requires `webauthn`, so
 * that each user, once signed in with the password, registers a key (a software ES256 authenticator) in the MFA step's
 * enrolment; then fresh sign-ins are prepared up to their page and each answer signed beforehand. What is timed is the
 * passkey form's POST and the redirects that follow, until the browser is sent to the client with a code (the
 * challenge used, the signature verified, the counter and the sign-in recorded, the OP issuing the code). Run last: the
 * policy it sets would change the other rows.
 */
export async function passkeySignIns(service: SignInService, count: number, concurrency: number): Promise<BatchFigures> {
  const api = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${service.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': service.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  };
  await api('POST', '/auth-providers', { type: 'passkey' });
  await api('PUT', '/policies/mfa', { enforcement: 'required', factors: ['webauthn'] });
  const { prepared, attempt, emails } = await prepareSignIns(service, 2 * count, count, 'passkeys');
  const keys: SoftAuthenticator[] = [];
  for (let i = 0; i < count; i += 1) {
    const { jar } = prepared(i);
    const afterPassword = await attempt(i, emails[i]!, PASSWORD);
    if (afterPassword.location === undefined) throw new Error(`password before enrolment: ${afterPassword.status}`);
    const step = await jar.visit(afterPassword.location);
    const { form, options } = webauthnFormOf(step);
    const key = new SoftAuthenticator();
    const registered = await jar.visit(form.action, { form: { ...form.fields, name: 'Bench key', credential: key.register(options as never, new URL(step.url).origin) } });
    if (registered.status !== 200) throw new Error(`registering a key: ${registered.status} ${registered.body.slice(0, 500)}`);
    keys.push(key);
  }
  const answers = keys.map((key, i) => {
    const { page } = prepared(count + i);
    const { form, options } = webauthnFormOf(page);
    return { form, credential: key.assert(options, new URL(page.url).origin) };
  });
  return batch(
    'hosted sign-in: passkey POST → code',
    count,
    concurrency,
    async (i) => {
      const { jar } = prepared(count + i);
      const { form, credential } = answers[i]!;
      const out = await jar.followOut(await jar.visit(form.action, { form: { ...form.fields, credential } }), service.baseUrl);
      return out.href.startsWith(REDIRECT_URI) && out.searchParams.get('code') !== null;
    },
    service.cpuMs,
    service.loopDelayMs,
  );
}
