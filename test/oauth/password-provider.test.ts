import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import { startHostedTestApp, REDIRECT_URI, type HostedTestApp } from '../support/hosted-app.ts';
import type { HttpClient } from '../support/http.ts';
import { createTestClient, discover, startAuthorization } from '../support/oauth.ts';
import { createPasswordUser, PASSWORD } from '../support/users.ts';

/**
 * Password sign-in is a provider like the others (Auth0's database connection): every application starts with an
 * enabled one, adding another keeps it, and only disabling or deleting it turns passwords off. `m2m` and `api_keys`
 * providers sign no one in, so they make no tenant's sign-in set its own.
 */
let hosted: HostedTestApp;


const GOOGLE = { type: 'oauth', config: { provider: 'google', clientId: 'x.apps.googleusercontent.com' }, secrets: { clientSecret: 's' } };

const listed = async (http: HttpClient, path = '/auth-providers') => {
  const list = await http.get(path);
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  return list.body.data as { id: string; type: string; enabled: boolean; config: Record<string, unknown>; source: string | null; tenantId: string | null }[];
};

const hasPasswordForm = (page: Visit) => page.body.includes('name="password"');

beforeAll(async () => {
  hosted = await startHostedTestApp();
});
afterAll(async () => hosted?.close());

describe('a new application', () => {
  it('lists an enabled password provider with the defaults, audited as created in the new application', async () => {
    const created = await hosted.app.http.post('/applications', { name: 'Fresh' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const fresh = hosted.app.as({ apiKey: created.body.initialApiKey.secret as string });
    const providers = await listed(fresh);
    expect(providers).toMatchObject([{ type: 'password', name: 'Password', enabled: true, tenantId: null, config: { allowSignup: true, requireEmailVerification: true } }]);
    const [record] = await hosted.app.sql<{ application_id: string; action: string; target_id: string; actor_type: string }>(
      "select application_id, action, target_id, actor_type from audit_log where application_id = ? and action = 'auth_provider.created'",
      [created.body.id],
    );
    expect(record).toEqual({ application_id: created.body.id, action: 'auth_provider.created', target_id: providers[0]!.id, actor_type: 'api_key' });
    // Bootstrap's application has its own too.
    expect((await listed(hosted.app.http)).map((provider) => provider.type)).toEqual(['password']);
  });

  it('signs its users in with a password; adding Google keeps the password form beside Google, and disabling password removes it', async () => {
    await createPasswordUser(hosted.app.http, 'existing@example.com');
    const before = await hosted.signInPage();
    expect(hasPasswordForm(before.page)).toBe(true);
    expect((await hosted.signIn({ email: 'existing@example.com', password: PASSWORD })).tokens.access_token).toBeTruthy();

    const google = await hosted.app.http.post('/auth-providers', GOOGLE);
    expect(google.status, JSON.stringify(google.body)).toBe(201);
    try {
      const both = await hosted.signInPage();
      expect(hasPasswordForm(both.page)).toBe(true);
      expect(both.page.body).toContain('Sign in with Google');
      expect((await hosted.signIn({ email: 'existing@example.com', password: PASSWORD })).tokens.access_token).toBeTruthy();

      const [password] = (await listed(hosted.app.http)).filter((provider) => provider.type === 'password');
      expect((await hosted.app.http.patch(`/auth-providers/${password!.id}`, { enabled: false })).status).toBe(200);
      const googleOnly = await hosted.signInPage();
      expect(hasPasswordForm(googleOnly.page)).toBe(false);
      expect(googleOnly.page.body).toContain('Sign in with Google');
      const csrf = /name="csrf" value="([^"]*)"/.exec(googleOnly.page.body)?.[1] ?? '';
      const refused = await googleOnly.jar.visit(`${googleOnly.page.url}/login`, { form: { csrf, email: 'existing@example.com', password: PASSWORD } });
      expect(refused.status).toBe(403);
      expect((await hosted.app.http.patch(`/auth-providers/${password!.id}`, { enabled: true })).status).toBe(200);
    } finally {
      await hosted.app.http.delete(`/auth-providers/${google.body.id}`);
    }
  });
});

describe('an isolated tenant with only an m2m provider of its own', () => {
  it('still signs in with the application’s password provider, listed as inherited beside its own m2m', async () => {
    const another = await hosted.app.bootstrapAnother();
    const admin = hosted.app.as({ apiKey: another.apiKey });
    const appPath = `/applications/${another.applicationId}`;
    const north = await hosted.app.createTenant('North', another);
    expect((await admin.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const m2m = await admin.post(`${appPath}/tenants/${north}/auth-providers`, { type: 'm2m', config: { tokenLifetimeSeconds: 600 } });
    expect(m2m.status, JSON.stringify(m2m.body)).toBe(201);

    const providers = await listed(admin, `${appPath}/tenants/${north}/auth-providers`);
    expect(providers.map(({ type, source }) => ({ type, source }))).toEqual([
      { type: 'password', source: 'inherited' },
      { type: 'm2m', source: 'customized' },
    ]);
    const configuration = await admin.get(`${appPath}/tenants/${north}/configuration`);
    expect(configuration.body.auth.providersSource).toBe('inherited');

    await createPasswordUser(admin, 'nia@example.com', `${appPath}/tenants/${north}/users`);
    const client = await createTestClient(hosted.app, { type: 'web', applicationId: another.applicationId, redirectUris: [REDIRECT_URI] });
    const config = await discover(hosted.app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
    const flow = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource: '' }, { scope: 'openid', tenant: 'north' }, new CookieJar());
    expect(flow.page.status, flow.page.body.slice(0, 300)).toBe(200);
    expect(hasPasswordForm(flow.page)).toBe(true);
    const callback = await flow.jar.followOut(await flow.jar.submit(flow.page, { email: 'nia@example.com', password: PASSWORD }), hosted.issuer);
    expect(callback.searchParams.get('code')).toBeTruthy();
  });
});

describe('migrations 0052 and 0053', () => {
  it('give an application without providers of its own level an enabled password provider, audited as created, and leave the others', async () => {
    const bare = await hosted.app.bootstrapAnother();
    const m2mOnly = await hosted.app.bootstrapAnother();
    await hosted.app.sql('delete from auth_provider where application_id in (?, ?)', [bare.applicationId, m2mOnly.applicationId]);
    const m2m = await hosted.app.as({ apiKey: m2mOnly.apiKey }).post('/auth-providers', { type: 'm2m' });
    expect(m2m.status, JSON.stringify(m2m.body)).toBe(201);
    const rootBefore = await listed(hosted.app.http);

    await hosted.app.sql("delete from mikro_orm_migrations where name in ('0052-default-password-provider', '0053-default-password-provider-audit')");
    await hosted.app.gatehouse.services.orm.migrator.up();

    const rows = async (applicationId: string) =>
      hosted.app.sql<{ type: string; name: string; enabled: boolean; config: Record<string, unknown>; tenant_id: string | null }>(
        'select type, name, enabled, config, tenant_id from auth_provider where application_id = ? order by id',
        [applicationId],
      );
    expect(await rows(bare.applicationId)).toEqual([
      { type: 'password', name: 'Password', enabled: true, config: { allowSignup: true, requireEmailVerification: true }, tenant_id: null },
    ]);
    expect((await rows(m2mOnly.applicationId)).map((row) => row.type)).toEqual(['m2m']);
    expect(await listed(hosted.app.http)).toEqual(rootBefore);
    const [{ id }] = (await hosted.app.sql<{ id: string }>("select id from auth_provider where application_id = ? and type = 'password'", [bare.applicationId])) as [{ id: string }];
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);

    const audited = await hosted.app.as({ apiKey: bare.apiKey }).get(`/audit-logs?target=${id}`);
    expect(audited.body.data).toEqual([
      expect.objectContaining({
        action: 'auth_provider.created',
        actor: expect.objectContaining({ type: 'system', id: 'migration' }),
        changes: { before: null, after: { id, tenantId: null, type: 'password', name: 'Password', enabled: true, config: { allowSignup: true, requireEmailVerification: true }, secretsSet: [] } },
      }),
    ]);
    // A provider the service made has its own record: the migration adds none beside it.
    const rootPassword = rootBefore.find((provider) => provider.type === 'password')!;
    const rootAudited = await hosted.app.http.get(`/audit-logs?target=${rootPassword.id}&action=auth_provider.created`);
    expect(rootAudited.body.data.map((entry: { actor: { type: string } }) => entry.actor.type)).not.toContain('system');
  });
});
