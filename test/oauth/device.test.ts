import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { TestBrowser, answerInteraction, createTestClient, discover, hiddenInputs, postForm, type TestClient } from '../support/oauth.ts';

/**
 * Device authorization (RFC 8628) with openid-client polling, the user on the OP's verification page (today the
 * provider's plain default form; the hosted pages will restyle it) and the sign-in answered through the seam.
 */
let app: TestApp;
let issuer: string;
let device: TestClient;
let ada: string;

/** The user's side: enter the code on the verification page, confirm, sign in. Returns the final page. */
async function approve(userCode: string, browser = new TestBrowser()): Promise<{ status: number; body: string }> {
  const verification = `${app.baseUrl}/oauth2/device`;
  const input = await browser.request(verification);
  expect(input.status).toBe(200);
  const confirm = await browser.request(verification, { form: { ...hiddenInputs(await input.text()), user_code: userCode } });
  const confirmPage = await confirm.text();
  if (confirm.status !== 200 || !confirmPage.includes('op.deviceConfirmForm')) return { status: confirm.status, body: confirmPage };
  const toInteraction = await browser.request(verification, { form: hiddenInputs(confirmPage) });
  expect(toInteraction.status).toBe(303);
  const uid = /\/interaction\/([^/?]+)/.exec(toInteraction.headers.get('location') ?? '')?.[1];
  const resume = await answerInteraction(app, uid!, { userId: ada, tenantId: null });
  const done = await browser.request(new URL(resume, app.baseUrl).href);
  return { status: done.status, body: await done.text() };
}

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  ada = (await app.http.post('/users', { email: 'ada@example.com', name: 'Ada' })).body.id;
  device = await createTestClient(app, { type: 'device', authMethod: 'none' });
});
afterAll(async () => app?.close());

describe('device authorization', () => {
  it('a device gets tokens once the user has entered the code, confirmed and signed in', async () => {
    const config = await discover(app, device.clientId, oidc.None());
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid email offline_access' });
    expect(started.verification_uri).toBe(`${issuer}/oauth2/device`);
    expect(started.verification_uri_complete).toContain(`${issuer}/oauth2/device?user_code=`);

    // Before the user acts, the device is told to keep polling.
    const early = await postForm(`${app.baseUrl}/oauth2/token`, {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: started.device_code,
      client_id: device.clientId,
    });
    expect(early.body.error).toBe('authorization_pending');

    const done = await approve(started.user_code);
    expect(done.status).toBe(200);
    expect(done.body).toContain('Sign-in Success');

    const tokens = await oidc.pollDeviceAuthorizationGrant(config, { ...started, interval: 1 });
    expect(tokens.claims()?.sub).toBe(ada);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(await oidc.fetchUserInfo(config, tokens.access_token, ada)).toEqual({ sub: ada, email: 'ada@example.com', email_verified: false });
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
  });

  it('a wrong user code is refused on the page; the device code stays pending', async () => {
    const config = await discover(app, device.clientId, oidc.None());
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    const wrong = await approve('WRONG-CODE');
    expect(wrong.body).toContain('The code you entered is incorrect');
    const pending = await postForm(`${app.baseUrl}/oauth2/token`, {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: started.device_code,
      client_id: device.clientId,
    });
    expect(pending.body.error).toBe('authorization_pending');
  });

  it('other clients may not start the device flow', async () => {
    const spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: ['https://app.example/cb'] });
    const refused = await postForm(`${app.baseUrl}/oauth2/device_authorization`, { client_id: spa.clientId, scope: 'openid' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'invalid_request', error_description: 'urn:ietf:params:oauth:grant-type:device_code is not allowed for this client' });
  });
});
