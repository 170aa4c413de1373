import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { exportSPKI, importJWK, SignJWT, UnsecuredJWT, type JWK, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accessTokenVerifier, createSampleApp, startSample } from '../../examples/express-app/app.ts';
import { setUp, type SetupResult } from '../../examples/express-app/setup.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar } from '../support/cookie-jar.ts';
import { freePort, root } from '../support/spawned-service.ts';

/**
 * `npm run example:setup` and `npm run example:start` (README, quick start) when they cannot do their work: one line on
 * stderr saying what is wrong and what to do, exit code 1, and no stack; and the addresses setup writes, as Gatehouse
 * and the sample use them. The sign-in itself is test/browser/quick-start.test.ts.
 */
let app: TestApp;
/** Gatehouse's PUBLIC_URL, http://127.0.0.1:{port}: its issuer. */
let issuer: string;
beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
});
afterAll(async () => app?.close());

// Not the npm_* settings of an `npm test` around this run: npm would read them as its own.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));

async function exampleSetup(settings: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const withoutKey = { ...env, GATEHOUSE_API_KEY: '' };
  const answer = await promisify(execFile)('npm', ['run', '--silent', 'example:setup'], { cwd: root, env: { ...withoutKey, ...settings } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  return { code: answer.code, stdout: answer.stdout, stderr: answer.stderr };
}

describe('the example’s setup script, refused', () => {
  it('says Gatehouse cannot be reached at GATEHOUSE_URL, and what to do', async () => {
    const gatehouseUrl = `http://localhost:${await freePort()}`;
    expect(await exampleSetup({ GATEHOUSE_URL: gatehouseUrl, GATEHOUSE_API_KEY: 'ghk_unknown' })).toEqual({
      code: 1,
      stdout: '',
      stderr: `setup: cannot reach Gatehouse at ${gatehouseUrl} (ECONNREFUSED): start it (npm start), or set GATEHOUSE_URL to its address (its PUBLIC_URL)\n`,
    });
  });

  it('says which key it needs when none is given', async () => {
    expect(await exampleSetup({ GATEHOUSE_URL: issuer })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'setup: set GATEHOUSE_API_KEY to the key Gatehouse printed on its first start\n',
    });
  });

  it('gives Gatehouse’s refusal of the key in one line', async () => {
    const refused = await exampleSetup({ GATEHOUSE_URL: issuer, GATEHOUSE_API_KEY: 'ghk_unknown' });
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toMatch(/^setup: list applications: 401 \{"code":"unauthenticated","message":"[^"\n]+"\}\n$/);
  });
});

describe('the example’s setup script, its addresses', () => {
  it('refuses a GATEHOUSE_URL that reaches Gatehouse but is not its issuer, naming the issuer', async () => {
    const elsewhere = issuer.replace('127.0.0.1', 'localhost');
    // An unknown key: a setup that went ahead would stop at the first call, not write gatehouse.local.json.
    expect(await exampleSetup({ GATEHOUSE_URL: elsewhere, GATEHOUSE_API_KEY: 'ghk_unknown' })).toEqual({
      code: 1,
      stdout: '',
      stderr: `setup: Gatehouse at ${elsewhere} names its issuer ${issuer}: set GATEHOUSE_URL to the service's PUBLIC_URL, ${issuer}\n`,
    });
  });

  it('writes the issuer Gatehouse reports and APP_URL as its origin, trailing slashes or not, and registers one client', async () => {
    const first = await setUp({ gatehouseUrl: `${issuer}/`, apiKey: app.root.apiKey, appUrl: 'http://localhost:4617/' });
    expect(first.config).toMatchObject({ issuer, appUrl: 'http://localhost:4617' });
    const again = await setUp({ gatehouseUrl: issuer, apiKey: app.root.apiKey, appUrl: 'http://localhost:4617' });
    expect(again.config).toMatchObject({ issuer, appUrl: 'http://localhost:4617', clientId: first.config.clientId });
    const clients = (await app.http.get('/oauth-clients?pageSize=100')).body.data as { redirectUris: string[] }[];
    expect(clients.filter((client) => client.redirectUris.includes('http://localhost:4617/callback'))).toHaveLength(1);
    expect(clients.flatMap((client) => client.redirectUris)).not.toContain('http://localhost:4617//callback');
  });
});

describe('the example app, unable to start', () => {
  /** What `npm run example:start` prints on stderr and its exit code, with `configFile` as gatehouse.local.json. */
  async function sampleStart(configFile: URL): Promise<{ code: number; stderr: string }> {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const started = await startSample(configFile);
      if (typeof started !== 'number') {
        await new Promise((resolve) => started.close(resolve));
        throw new Error('the sample started');
      }
      return { code: started, stderr: errors.mock.calls.map((call) => `${call.join(' ')}\n`).join('') };
    } finally {
      errors.mockRestore();
    }
  }

  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'gatehouse-sample-'));
  });
  afterAll(async () => rm(directory, { recursive: true, force: true }));

  it('without gatehouse.local.json: says to run the setup, in one line', async () => {
    const missing = pathToFileURL(join(directory, 'gatehouse.local.json'));
    expect(await sampleStart(missing)).toEqual({ code: 1, stderr: `sample: ${missing.pathname} is missing: run npm run example:setup first (README, "Quick start")\n` });
  });

  it('with the gatehouse.local.json of an older setup (no tenantId): says to run the setup again, in one line', async () => {
    const configFile = pathToFileURL(join(directory, 'older.json'));
    const config = { issuer: 'http://localhost:3000', appUrl: 'http://localhost:4000', clientId: 'c', clientSecret: 's', tenant: 'acme', apiIdentifier: 'https://notes.example.com', permission: 'notes:read' };
    await writeFile(configFile, JSON.stringify(config));
    expect(await sampleStart(configFile)).toEqual({ code: 1, stderr: `sample: ${configFile.pathname} has no tenantId: run npm run example:setup again\n` });
  });

  it('while Gatehouse does not answer: says so in one line', async () => {
    const gatehouseUrl = `http://127.0.0.1:${await freePort()}`;
    const configFile = pathToFileURL(join(directory, 'unreachable.json'));
    const config = { issuer: gatehouseUrl, appUrl: 'http://localhost:4617', clientId: 'c', clientSecret: 's', tenant: 'acme', tenantId: '01a2489a-f16f-76f0-8e7c-a5921985fb9a', apiIdentifier: 'https://notes.example.com', permission: 'notes:read' };
    await writeFile(configFile, JSON.stringify(config));
    expect(await sampleStart(configFile)).toEqual({ code: 1, stderr: `sample: cannot reach Gatehouse at ${gatehouseUrl} (ECONNREFUSED): start it (npm start), or run npm run example:setup with GATEHOUSE_URL set to its PUBLIC_URL\n` });
  });
});

describe('the example app, bound to its tenant and its API', () => {
  let setup: SetupResult;
  let sample: Server;
  let sampleUrl: string;
  /** A user of the sample's tenant holding its role (the demo user's password is told only by the setup that made it). */
  let reader: { email: string; password: string };
  /** Another tenant of the same application, whose user holds the sample's role there. */
  let other: { id: string; email: string; password: string };
  beforeAll(async () => {
    const port = await freePort();
    sampleUrl = `http://127.0.0.1:${port}`;
    setup = await setUp({ gatehouseUrl: issuer, apiKey: app.root.apiKey, appUrl: sampleUrl });
    const express = await createSampleApp(setup.config);
    sample = await new Promise<Server>((resolve) => {
      const server = express.listen(port, '127.0.0.1', () => resolve(server));
    });
    const appId = app.root.applicationId;
    const tenant = await app.http.post(`/applications/${appId}/tenants`, { name: 'Globex', slug: 'globex' });
    expect(tenant.status).toBe(201);
    other = { id: tenant.body.id, email: 'reader@globex.example', password: 'Another-Horse-8' };
    const user = await app.http.post(`/applications/${appId}/tenants/${other.id}/users`, { email: other.email, password: other.password });
    expect(user.status).toBe(201);
    const role = ((await app.http.get('/roles?pageSize=100')).body.data as { id: string; key: string }[]).find((candidate) => candidate.key === 'notes-reader')!;
    const assigned = await app.http.post(`/applications/${appId}/tenants/${other.id}/role-assignments`, { subject: { type: 'user', id: user.body.id }, roleId: role.id });
    expect(assigned.status).toBe(201);
    reader = { email: 'reader@acme.example', password: 'Another-Horse-9' };
    const acmeUser = await app.http.post(`/applications/${appId}/tenants/${setup.tenantId}/users`, reader);
    expect(acmeUser.status).toBe(201);
    const acmeRole = await app.http.post(`/applications/${appId}/tenants/${setup.tenantId}/role-assignments`, { subject: { type: 'user', id: acmeUser.body.id }, roleId: role.id });
    expect(acmeRole.status).toBe(201);
  });
  afterAll(async () => new Promise((resolve) => (sample === undefined ? resolve(undefined) : sample.close(resolve))));

  /** A token signed by one of Gatehouse's own keys, as its token endpoint makes them for the sample's API, with `claims` over the good ones. */
  async function accessToken(claims: JWTPayload = {}, header: { alg?: string; typ?: string } = {}): Promise<string> {
    const { keys } = await app.gatehouse.services.signingKeys.privateJwks();
    const alg = header.alg ?? 'ES256';
    const jwk = keys.find((key) => key.alg === alg) as JWK;
    const now = Math.floor(Date.now() / 1000);
    const payload = { iss: issuer, aud: setup.config.apiIdentifier, sub: setup.user.id, iat: now, exp: now + 600, tenant_id: setup.tenantId, permissions: ['notes:read'], ...claims };
    return new SignJWT(payload).setProtectedHeader({ alg, kid: jwk.kid!, typ: header.typ ?? 'at+jwt' }).sign(await importJWK(jwk, alg));
  }
  const notes = async (token: string) => {
    const answer = await fetch(`${sampleUrl}/api/notes`, { headers: { authorization: `Bearer ${token}` } });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };

  it('its API answers a token of its tenant holding the permission', async () => {
    expect(await notes(await accessToken())).toMatchObject({ status: 200, body: { user: setup.user.id, tenant: setup.tenantId } });
  });

  it('its API refuses a token of another tenant, or of none, that holds the permission: 403', async () => {
    expect(await notes(await accessToken({ tenant_id: other.id }))).toEqual({ status: 403, body: { error: 'the token is not for tenant acme' } });
    expect(await notes(await accessToken({ tenant_id: undefined }))).toEqual({ status: 403, body: { error: 'the token is not for tenant acme' } });
  });

  it('its API refuses a token expired, of another issuer or audience, not an access token, unsigned, or signed with its public key as a secret: 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    const refused = { status: 401, body: { error: expect.stringMatching(/^invalid access token: ERR_/) } };
    expect(await notes(await accessToken({ iat: now - 7200, exp: now - 3600 }))).toEqual(refused);
    expect(await notes(await accessToken({ iss: `${issuer}/t/acme` }))).toEqual(refused);
    expect(await notes(await accessToken({ aud: 'https://other.example.com' }))).toEqual(refused);
    // An ID token's type, though signed by Gatehouse for this audience.
    expect(await notes(await accessToken({}, { typ: 'JWT' }))).toEqual(refused);
    const claims = { iss: issuer, aud: setup.config.apiIdentifier, sub: setup.user.id, exp: now + 600, tenant_id: setup.tenantId, permissions: ['notes:read'] };
    expect(await notes(new UnsecuredJWT(claims).encode())).toEqual(refused);
    // alg confusion: HS256 keyed with the published RSA key.
    const rsa = (await app.gatehouse.services.signingKeys.publicJwks()).find((key) => key.alg === 'RS256')!;
    const pem = await exportSPKI((await importJWK(rsa, 'RS256')) as CryptoKey);
    const hmac = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: rsa.kid!, typ: 'at+jwt' }).sign(new TextEncoder().encode(pem));
    expect(await notes(hmac)).toEqual(refused);
    expect(await notes(await accessToken({ permissions: ['notes:write'] }))).toEqual({ status: 403, body: { error: 'the token lacks notes:read' } });
  });

  /** The sample's sign-in as a browser makes it, the authorization request's `tenant` changed to `tenant`; the callback's answer. */
  async function signIn(jar: CookieJar, email: string, password: string, tenant?: string) {
    const login = await jar.visit(`${sampleUrl}/login`);
    const authorize = new URL(login.location!);
    if (tenant !== undefined) authorize.searchParams.set('tenant', tenant);
    const interaction = await jar.visit(authorize.href);
    const page = await jar.visit(interaction.location!);
    const posted = await jar.submit(page, { email, password }, { origin: issuer });
    return jar.visit((await jar.followOut(posted, issuer)).href);
  }

  it('a user who signs in to its tenant is shown, and its API answers their access token', async () => {
    const jar = new CookieJar();
    expect((await signIn(jar, reader.email, reader.password)).status).toBe(302);
    expect((await jar.visit(`${sampleUrl}/`)).body).toContain(`<p id="tenant">Tenant: <strong>acme</strong> (<code>${setup.tenantId}</code>)</p>`);
    expect((await jar.visit(`${sampleUrl}/notes`)).body).toContain('<p id="status">The API answered 200</p>');
  });

  it('a user who signs in to another tenant through the sample is not shown as signed in to its tenant', async () => {
    const jar = new CookieJar();
    const callback = await signIn(jar, other.email, other.password, 'globex');
    expect(callback.status).toBe(400);
    expect(callback.body).toContain('<p id="reason">You signed in to another tenant than acme.</p>');
    const home = await jar.visit(`${sampleUrl}/`);
    expect(home.body).toContain('Not signed in.');
  });

  it('its API, while it cannot read Gatehouse’s keys, answers 503, neither 401 nor an error page', async () => {
    const verify = accessTokenVerifier(setup.config, new URL(`http://127.0.0.1:${await freePort()}/.well-known/jwks.json`));
    await expect(verify(`Bearer ${await accessToken()}`)).rejects.toMatchObject({ status: 503, message: 'cannot read Gatehouse’s keys (its JWKS): try again later' });
  });

  // Last: it revokes the keys the tests above sign with.
  it('its API refuses the tokens of a revoked signing key once Gatehouse no longer publishes it, as Gatehouse does (30 s)', async () => {
    const token = await accessToken();
    expect((await notes(token)).status).toBe(200);
    await app.gatehouse.services.signingKeys.rotate({ revoke: true });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    try {
      expect(await notes(token)).toEqual({ status: 401, body: { error: 'invalid access token: ERR_JWKS_NO_MATCHING_KEY' } });
    } finally {
      vi.useRealTimers();
    }
  });
});
