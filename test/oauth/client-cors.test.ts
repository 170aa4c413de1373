import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { codeThroughSeam, discover, postForm } from '../support/oauth.ts';

/**
 * CORS at the OP's endpoints for a client's `allowedOrigins`: a hybrid app's web view (Capacitor, Ionic) calls from an
 * origin that none of its redirect URIs (a private-use scheme) has. The OP reflects any origin in a preflight, which
 * names no client; the request itself carries Access-Control-Allow-Origin only for an origin its client allows.
 */
const REDIRECT = 'com.example.app:/callback';
const CAPACITOR = 'capacitor://localhost';

let app: TestApp;
let tokenUrl: string;
let tenantA: string;
let ada: string;

async function createClient(body: Record<string, unknown>, http = app.http): Promise<string> {
  const created = await http.post('/oauth-clients', { name: 'Hybrid', type: 'native', redirectUris: [REDIRECT], ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.clientId as string;
}

/** A code for Ada through `clientId`, and the form that redeems it. */
async function redeemable(clientId: string): Promise<Record<string, string>> {
  const config = await discover(app, clientId, oidc.None(), { redirect_uris: [REDIRECT] });
  const { callback, verifier } = await codeThroughSeam(app, config, REDIRECT, { userId: ada, tenantId: tenantA });
  return { grant_type: 'authorization_code', client_id: clientId, code: callback.searchParams.get('code') ?? '', redirect_uri: REDIRECT, code_verifier: verifier };
}

const tokenFrom = (origin: string, form: Record<string, string>) => postForm(tokenUrl, form, { origin });

function expectRefused(answer: Awaited<ReturnType<typeof postForm>>, origin: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining(`origin ${origin} not allowed`) });
  expect(answer.headers.get('access-control-allow-origin')).toBeNull();
}

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  tokenUrl = `${app.baseUrl}/oauth2/token`;
  tenantA = await app.createTenant('Tenant A');
  ada = await app.createUser('ada@example.com', tenantA);
});
afterAll(async () => app?.close());

describe('allowed origins', () => {
  it('a native client without them is refused from capacitor://localhost; with it, its token request and userinfo are answered with CORS', async () => {
    const plain = await createClient({});
    expectRefused(await tokenFrom(CAPACITOR, await redeemable(plain)), CAPACITOR);

    const hybrid = await createClient({ allowedOrigins: [CAPACITOR, 'http://localhost'] });
    const form = await redeemable(hybrid);
    // Another origin is refused, and the refusal leaves the code unspent.
    expectRefused(await tokenFrom('ionic://localhost', form), 'ionic://localhost');
    const tokens = await tokenFrom(CAPACITOR, form);
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(tokens.headers.get('access-control-allow-origin')).toBe(CAPACITOR);
    expect(tokens.body.access_token).toEqual(expect.any(String));

    const userinfo = await fetch(`${app.baseUrl}/oauth2/userinfo`, { headers: { authorization: `Bearer ${tokens.body.access_token}`, origin: 'http://localhost' } });
    expect(userinfo.status).toBe(200);
    expect(userinfo.headers.get('access-control-allow-origin')).toBe('http://localhost');
    const elsewhere = await fetch(`${app.baseUrl}/oauth2/userinfo`, { headers: { authorization: `Bearer ${tokens.body.access_token}`, origin: 'https://evil.example' } });
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a preflight names no client: the OP answers it for any origin, and the request decides', async () => {
    const preflight = await fetch(tokenUrl, {
      method: 'OPTIONS',
      headers: { origin: CAPACITOR, 'access-control-request-method': 'POST', 'access-control-request-headers': 'dpop' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(CAPACITOR);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('a change to them holds from the next request', async () => {
    const hybrid = await createClient({ allowedOrigins: [CAPACITOR] });
    const changed = await app.http.patch(`/oauth-clients/${hybrid}`, { allowedOrigins: ['ionic://localhost'] });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.allowedOrigins).toEqual(['ionic://localhost']);
    const form = await redeemable(hybrid);
    expectRefused(await tokenFrom(CAPACITOR, form), CAPACITOR);
    expect((await tokenFrom('ionic://localhost', form)).headers.get('access-control-allow-origin')).toBe('ionic://localhost');
  });

  it('one application’s origins hold for its own clients only, never for another application’s', async () => {
    const other = await app.bootstrapAnother();
    const foreign = await createClient({ allowedOrigins: ['ionic://localhost'] }, app.as({ apiKey: other.apiKey }));
    const own = await createClient({ allowedOrigins: [CAPACITOR] });
    expectRefused(await tokenFrom('ionic://localhost', await redeemable(own)), 'ionic://localhost');
    // The client is known before its code is read: the origin is refused first, whatever the code.
    const foreignForm = { grant_type: 'authorization_code', client_id: foreign, code: 'unknown', redirect_uri: REDIRECT, code_verifier: 'v'.repeat(43) };
    expectRefused(await tokenFrom(CAPACITOR, foreignForm), CAPACITOR);
    const ownOrigin = await tokenFrom('ionic://localhost', foreignForm);
    expect([ownOrigin.body.error, ownOrigin.headers.get('access-control-allow-origin')]).toEqual(['invalid_grant', 'ionic://localhost']);
  });
});
