import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey, signJwt } from '../../src/auth/jwt.ts';
import { sweepExpiredFlowRows } from '../../src/domain/sign-in/expired-rows.ts';
import { sweepExpiredModels } from '../../src/oidc/storage-sweep.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { IDP_CERTIFICATE } from '../support/saml-idp.ts';
import { basicAuth, createTestClient, decodeJwt, discover, postForm } from '../support/oauth.ts';

let app: TestApp;
let issuer: string;
let client: { clientId: string; clientSecret: string };
let genuine: string;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Tokens that must not authenticate anywhere, each a variation of a genuine one. */
async function forgeries(): Promise<Record<string, string>> {
  const { header, payload } = decodeJwt(genuine);
  const [activeKey] = (await app.gatehouse.services.signingKeys.privateJwks()).keys;
  const stranger = await generateSigningKey();
  const claims = { app_id: payload.app_id, permissions: payload.permissions, client_id: payload.client_id };
  const options = { issuer, audience: payload.aud as string, subject: payload.sub as string, expiresInSeconds: 300 };
  return {
    'alg none': `${b64({ alg: 'none', typ: 'at+jwt', kid: header.kid })}.${b64(payload)}.`,
    'typ JWT': await signJwt(activeKey!, claims, { ...options, type: 'JWT' }),
    'no typ': await signJwt(activeKey!, claims, { ...options, type: '' }),
    'foreign kid': await signJwt(stranger.privateJwk, claims, options),
    'foreign key, our kid': await signJwt({ ...stranger.privateJwk, kid: header.kid }, claims, options),
    'tampered payload': `${genuine.split('.')[0]}.${b64({ ...payload, permissions: ['*'] })}.${genuine.split('.')[2]}`,
    'another issuer': await signJwt(activeKey!, claims, { ...options, issuer: 'https://evil.example' }),
  };
}

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  const created = await createTestClient(app, { permissions: ['users:read'] });
  client = { clientId: created.clientId, clientSecret: created.clientSecret! };
  genuine = (await oidc.clientCredentialsGrant(await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret)))).access_token;
});
afterAll(async () => app?.close());

describe('forged tokens', () => {
  it('the management API takes the genuine token and refuses every forgery with 401', async () => {
    expect((await app.as({ bearer: genuine }).get('/users')).status).toBe(200);
    for (const [name, token] of Object.entries(await forgeries())) {
      const response = await app.as({ bearer: token }).get('/users');
      expect({ name, status: response.status, code: response.body.code }).toEqual({ name, status: 401, code: 'unauthenticated' });
    }
  });

  it('userinfo refuses every forgery, and the client-credentials token too (it is for the management API), with 401', async () => {
    const tokens = { genuine, ...(await forgeries()) };
    for (const [name, token] of Object.entries(tokens)) {
      const response = await fetch(`${app.baseUrl}/oauth2/userinfo`, { headers: { authorization: `Bearer ${token}` } });
      expect({ name, status: response.status }).toEqual({ name, status: 401 });
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    }
  });

  it('userinfo without a token is 401 with a Bearer challenge', async () => {
    const response = await fetch(`${app.baseUrl}/oauth2/userinfo`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });
});

describe('revocation (RFC 7009)', () => {
  const revoke = (token: string, credentials = client) =>
    postForm(`${app.baseUrl}/oauth2/revoke`, { token }, { authorization: basicAuth(credentials.clientId, credentials.clientSecret) });

  it('a JWT access token is self-contained: unsupported_token_type, and it stays valid until it expires', async () => {
    const response = await revoke(genuine);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('unsupported_token_type');
    expect((await app.as({ bearer: genuine }).get('/users')).status).toBe(200);
  });

  it('an unknown token is 200 (nothing to tell), an unauthenticated caller is invalid_client', async () => {
    expect((await revoke('no-such-token')).status).toBe(200);
    const unauthenticated = await revoke('no-such-token', { ...client, clientSecret: 'wrong' });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body.error).toBe('invalid_client');
  });

  it('GET is 405', async () => {
    const response = await fetch(`${app.baseUrl}/oauth2/revoke`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });
});

describe('storage', () => {
  it('expired models read as absent and the sweep deletes them; live ones stay', async () => {
    const { orm } = app.gatehouse.services;
    const sql = <T = any>(query: string, params: unknown[] = []) => orm.em.getConnection().execute<T[]>(query, params);
    await sql(`insert into oidc_model (model, id, payload, expires_at) values ('Session', 'old', '{}', now() - interval '1 minute')`);
    await sql(`insert into oidc_model (model, id, payload, expires_at) values ('Session', 'live', '{}', now() + interval '1 hour')`);
    const { provider } = await app.gatehouse.services.oidc.get();
    expect(await provider.Session.adapter.find('old')).toBeUndefined();
    expect(await provider.Session.adapter.find('live')).toEqual({});
    expect(await sweepExpiredModels(orm)).toBeGreaterThanOrEqual(1);
    expect(await sql(`select id from oidc_model where model = 'Session' and id in ('old', 'live')`)).toEqual([{ id: 'live' }]);
  });

  it('the sweep deletes expired hosted-flow rows (e-mail sign-ins, e-mail links, MFA e-mail codes, SAML requests, assertions, subjects, logouts); live ones stay', async () => {
    const { orm } = app.gatehouse.services;
    const sql = <T = any>(query: string, params: unknown[] = []) => orm.em.getConnection().execute<T[]>(query, params);
    const applicationId = app.root.applicationId;
    const ids: string[] = [];
    for (const email of ['swept@example.com', 'kept@example.com']) {
      const created = await app.http.post('/users', { email, password: 'Correct-Horse-9' });
      expect(created.status).toBe(201);
      ids.push(created.body.id as string);
    }
    const [pool] = await sql<{ pool_id: string }>(`select pool_id from app_user where application_id = ? and id = ?`, [applicationId, ids[0]]);
    for (const [i, userId] of ids.entries()) {
      const expiresAt = i === 0 ? `now() - interval '1 minute'` : `now() + interval '1 hour'`;
      const hash = `sweep-${i}`;
      await sql(
        `insert into email_sign_in (application_id, id, interaction_id, client_id, pool_id, user_id, email, method, token_hash, expires_at)
         values (?, ?, ?, ?, ?, ?, ?, 'magic_link', ?, ${expiresAt})`,
        [applicationId, randomUUID(), `interaction-${i}`, client.clientId, pool!.pool_id, userId, `user-${i}@example.com`, hash],
      );
      await sql(`insert into email_link_token (application_id, id, user_id, client_id, purpose, token_hash, expires_at) values (?, ?, ?, ?, 'password_reset', ?, ${expiresAt})`, [
        applicationId,
        randomUUID(),
        userId,
        client.clientId,
        hash,
      ]);
      await sql(`insert into mfa_email_code (application_id, user_id, code_hash, expires_at) values (?, ?, ?, ${expiresAt})`, [applicationId, userId, hash]);
    }
    // SAML's rows, of a provider of another application, which has no sign-in to sweep them on.
    const other = await app.bootstrapAnother();
    const saml = await app.as({ apiKey: other.apiKey }).post('/auth-providers', { type: 'saml', config: { entityId: 'https://idp.test/sweep', ssoUrl: 'https://idp.test/sso', certificate: IDP_CERTIFICATE } });
    expect(saml.status, JSON.stringify(saml.body)).toBe(201);
    const samlUser = (await app.as({ apiKey: other.apiKey }).post('/users', { email: 'saml-sweep@example.com' })).body.id as string;
    for (const [i, expiresAt] of [`now() - interval '1 minute'`, `now() + interval '1 hour'`].entries()) {
      const row = [other.applicationId, saml.body.id, `sweep-${i}`];
      await sql(`insert into saml_request (application_id, provider_id, id, interaction_uid, client_id, return_origin, created_at, expires_at) values (?, ?, ?, 'i', 'c', 'o', now(), ${expiresAt})`, row);
      await sql(`insert into saml_assertion (application_id, provider_id, id, expires_at) values (?, ?, ?, ${expiresAt})`, row);
      await sql(`insert into saml_subject (application_id, provider_id, name_id, user_id, expires_at) values (?, ?, ?, ?, ${expiresAt})`, [...row, samlUser]);
      await sql(`insert into saml_logout (application_id, provider_id, id, return_to, expires_at) values (?, ?, ?, 'https://app.example/', ${expiresAt})`, row);
    }
    expect(await sweepExpiredFlowRows(orm.em)).toBeGreaterThanOrEqual(7);
    for (const table of ['email_sign_in', 'email_link_token', 'mfa_email_code']) {
      const left = await sql<{ user_id: string }>(`select user_id from ${table} where application_id = ? and user_id in (?, ?)`, [applicationId, ...ids]);
      expect(left, table).toEqual([{ user_id: ids[1] }]);
    }
    for (const [table, key] of [['saml_request', 'id'], ['saml_assertion', 'id'], ['saml_subject', 'name_id'], ['saml_logout', 'id']] as const) {
      expect(await sql(`select ${key} as key from ${table} where application_id = ?`, [other.applicationId]), table).toEqual([{ key: 'sweep-1' }]);
    }
  });
});
