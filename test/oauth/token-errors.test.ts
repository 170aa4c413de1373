import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { codeThroughSeam, createTestClient, decodeJwt, discover, OFFLINE_CONSENT, postForm, type TestClient } from '../support/oauth.ts';

/**
 * A refused token request leaves the code or refresh token it presented as it was (RFC 6749 5.2, RFC 8707 2): the
 * client may correct the request and send it again. Only a real replay is reuse, and revokes the grant.
 */
const REDIRECT = 'https://app.example/callback';
const UNKNOWN_RESOURCE = 'https://evil.example/';

let app: TestApp;
let spa: TestClient;
let ada: string;
let managementApi: string;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  managementApi = `${app.gatehouse.services.config.publicUrl}/api/v1`;
  const tenant = await app.createTenant('Acme');
  ada = (await app.http.post('/users', { email: 'ada@example.com', tenantId: tenant })).body.id;
  spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT] });
});
afterAll(async () => app?.close());

/** A code for Ada (with a refresh token to come: offline_access, prompt=consent), and its PKCE verifier. */
async function signIn(parameters: Record<string, string> = {}, client: TestClient = spa) {
  const config = await discover(app, client.clientId, oidc.None(), { redirect_uris: [REDIRECT] });
  const { callback, verifier } = await codeThroughSeam(app, config, REDIRECT, { userId: ada, tenantId: null }, { ...OFFLINE_CONSENT, ...parameters });
  return { code: callback.searchParams.get('code')!, verifier };
}

const token = (fields: Record<string, string>, client: TestClient = spa) => postForm(`${app.baseUrl}/oauth2/token`, { client_id: client.clientId, ...fields });

const redeem = (code: { code: string; verifier: string }, fields: Record<string, string> = {}, client: TestClient = spa) =>
  token({ grant_type: 'authorization_code', code: code.code, code_verifier: code.verifier, redirect_uri: REDIRECT, ...fields }, client);


const userinfoStatus = async (accessToken: string) =>
  (await fetch(`${app.baseUrl}/oauth2/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } })).status;

describe('a resource the token request may not name is refused before anything is consumed', () => {
  it('a code redeemed for an unknown resource, or one it was not granted, is invalid_target and is then redeemed', async () => {
    const code = await signIn();
    for (const resource of [UNKNOWN_RESOURCE, managementApi]) {
      const refused = await redeem(code, { resource });
      expect({ resource, status: refused.status, error: refused.body.error }).toEqual({ resource, status: 400, error: 'invalid_target' });
    }
    const redeemed = await redeem(code);
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
    expect(await userinfoStatus(redeemed.body.access_token)).toBe(200);

    // A replay is still a replay, whatever it names: the grant dies with its tokens.
    expect((await redeem(code, { resource: UNKNOWN_RESOURCE })).body.error).toBe('invalid_grant');
    expect(await userinfoStatus(redeemed.body.access_token)).toBe(401);
  });

  it('a granted resource is served', async () => {
    const code = await signIn({ resource: managementApi });
    const redeemed = await redeem(code, { resource: managementApi });
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
    expect((await app.as({ bearer: redeemed.body.access_token }).get('/users')).status).toBe(403);
  });

  it('a refresh for an unknown resource, or one not granted, is invalid_target; the refresh token still works', async () => {
    const tokens = (await redeem(await signIn())).body;
    for (const resource of [UNKNOWN_RESOURCE, managementApi]) {
      const refused = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, resource });
      expect({ resource, status: refused.status, error: refused.body.error }).toEqual({ resource, status: 400, error: 'invalid_target' });
    }
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(await userinfoStatus(tokens.access_token)).toBe(200);

    // The rotated token presented again is reuse: the grant dies.
    expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, resource: UNKNOWN_RESOURCE })).body.error).toBe(
      'invalid_grant',
    );
    expect(await userinfoStatus(refreshed.body.access_token)).toBe(401);
  });
});

describe('a client whose managementApi was turned off', () => {
  const setManagementApi = async (client: TestClient, managementApi: boolean) =>
    expect((await app.http.patch(`/oauth-clients/${client.clientId}`, { managementApi })).status).toBe(200);
  const statuses = (responses: { status: number; body: { error?: string } }[]) => responses.map((response) => `${response.status} ${response.body.error ?? ''}`);

  it('is refused the management API, named or granted without openid, before its code or refresh token is spent', async () => {
    const client = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT], managementApi: true });
    const named = await signIn({ resource: managementApi }, client);
    // No openid: oidc-provider issues for the granted resource though the token request names none.
    const implied = await signIn({ resource: managementApi, scope: 'offline_access' }, client);
    const redeemBoth = () => Promise.all([redeem(named, { resource: managementApi }, client), redeem(implied, {}, client)]);

    await setManagementApi(client, false);
    const refused = await redeemBoth();
    expect(statuses(refused)).toEqual(['400 invalid_target', '400 invalid_target']);
    expect(refused[0].body).toMatchObject({ error_description: expect.stringContaining('managementApi is off') });

    await setManagementApi(client, true);
    const redeemed = await redeemBoth();
    expect(statuses(redeemed), JSON.stringify(redeemed.map((response) => response.body))).toEqual(['200 ', '200 ']);
    expect(redeemed.map((response) => decodeJwt(response.body.access_token).payload.aud)).toEqual([managementApi, managementApi]);

    const refreshBoth = (tokens: { body: { refresh_token: string } }[]) =>
      Promise.all([
        token({ grant_type: 'refresh_token', refresh_token: tokens[0]!.body.refresh_token, resource: managementApi }, client),
        token({ grant_type: 'refresh_token', refresh_token: tokens[1]!.body.refresh_token }, client),
      ]);
    await setManagementApi(client, false);
    expect(statuses(await refreshBoth(redeemed))).toEqual(['400 invalid_target', '400 invalid_target']);
    await setManagementApi(client, true);
    const refreshed = await refreshBoth(redeemed);
    expect(statuses(refreshed)).toEqual(['200 ', '200 ']);
    expect(refreshed.map((response) => decodeJwt(response.body.access_token).payload.aud)).toEqual([managementApi, managementApi]);
  });
});

describe('expired credentials', () => {
  it('an expired refresh token or code is invalid_grant, never served', async () => {
    const code = await signIn();
    const tokens = (await redeem(await signIn())).body;
    await app.sql(
      `update oidc_model set expires_at = now() - interval '1 second', payload = jsonb_set(payload, '{exp}', to_jsonb(extract(epoch from now())::bigint - 1))
        where model in ('AuthorizationCode', 'RefreshToken') and id in (?, ?)`,
      [code.code, tokens.refresh_token],
    );
    expect((await redeem(code)).body.error).toBe('invalid_grant');
    expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).body.error).toBe('invalid_grant');
  });
});

describe('a code refused for its user is left unspent', () => {
  it('a code refused because its user is suspended is not consumed: once active again, it is redeemed', async () => {
    const code = await signIn();
    await app.sql(`update app_user set status = 'suspended' where id = ?`, [ada]);
    try {
      const refused = await redeem(code);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_grant');
    } finally {
      await app.sql(`update app_user set status = 'active' where id = ?`, [ada]);
    }
    const [row] = await app.sql<{ consumed: boolean }>(`select consumed_at is not null as consumed from oidc_model where model = 'AuthorizationCode' and id = ?`, [code.code]);
    expect(row?.consumed).toBe(false);
    const redeemed = await redeem(code);
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
  });
});

describe('resource indicators at the token endpoint (RFC 8707 2.2)', () => {
  it('the management API named twice is still that resource: its at+jwt, never a userinfo token silently', async () => {
    const code = await signIn({ resource: managementApi });
    const twice = (fields: Record<string, string>) => {
      const body = new URLSearchParams({ client_id: spa.clientId, ...fields });
      body.append('resource', managementApi);
      body.append('resource', managementApi);
      return fetch(`${app.baseUrl}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    };
    const redeemed = await twice({ grant_type: 'authorization_code', code: code.code, redirect_uri: REDIRECT, code_verifier: code.verifier });
    const tokens = (await redeemed.json()) as { access_token: string; refresh_token: string };
    expect(redeemed.status, JSON.stringify(tokens)).toBe(200);
    expect(tokens.access_token.split('.'), 'a JWT access token').toHaveLength(3);
    expect(decodeJwt(tokens.access_token).payload.aud).toBe(managementApi);
    const refreshed = await twice({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    const again = (await refreshed.json()) as { access_token: string };
    expect(refreshed.status, JSON.stringify(again)).toBe(200);
    expect(again.access_token.split('.'), 'a JWT access token').toHaveLength(3);
    expect(decodeJwt(again.access_token).payload.aud).toBe(managementApi);
  });
});
