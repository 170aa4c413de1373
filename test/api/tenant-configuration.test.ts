import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let appPath: string;
beforeAll(async () => {
  app = await startTestApp();
  appPath = `/applications/${app.root.applicationId}`;
});
afterAll(async () => app?.close());

const TENANT_PAGE_WITH_CONFIGURATION = `query($appId: UUID!, $pageSize: Int) {
  tenants(appId: $appId, pageSize: $pageSize) {
    data {
      id
      configuration {
        branding { colors { primary } source }
        emailTemplates { key subject source }
        emailProvider { type source }
        auth { providersSource providers { type source } policies { password { minLength source } mfa { source } session { source } lockout { source } } domains { hostname } }
      }
    }
  }
}`;

const FULL_TENANT_PAGE = `query($appId: UUID!, $pageSize: Int) {
  tenants(appId: $appId, pageSize: $pageSize) {
    data {
      id
      configuration {
        tenantId
        tenancyConfig { brandingScope emailTemplatesScope emailProviderScope authIsolation }
        branding { logoUrl faviconUrl colors { primary background text } copy source updatedAt }
        emailTemplates { key subject html text variables source updatedAt }
        emailProvider { type fromAddress fromName replyTo smtp { host port username security } ses { region accessKeyId } secretsSet source updatedAt }
        auth {
          authIsolation providersSource
          providers { id applicationId tenantId type name enabled config secretsSet callbackUrl acsUrl metadataUrl source createdAt updatedAt }
          policies { password { ...Policy } mfa { ...Policy } session { ...Policy } lockout { ...Policy } }
          domains { id applicationId tenantId hostname verified verifiedAt verificationToken verificationRecord { type name value } checkedAt failingSince createdAt }
        }
      }
    }
  }
}
fragment Policy on Policy { kind source updatedAt ... on PasswordPolicy { minLength maxAge historyCount } ... on MfaPolicy { enforcement factors } ... on SessionPolicy { idleTimeoutMinutes } ... on LockoutPolicy { maxAttempts } }`;

async function createTenants(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) ids.push((await app.http.post(`${appPath}/tenants`, { name: `Config ${ids.length}-${crypto.randomUUID().slice(0, 8)}` })).body.id);
  return ids;
}

describe('tenant configuration', () => {
  it('shows every section inherited until the tenant overrides one, then that section customized', async () => {
    const [tenantId] = await createTenants(1);
    const path = `${appPath}/tenants/${tenantId}/configuration`;
    const inherited = await app.http.get(path);
    expect(inherited.status).toBe(200);
    expect(inherited.body.tenantId).toBe(tenantId);
    expect(inherited.body.branding.source).toBe('inherited');
    expect(inherited.body.emailTemplates).toHaveLength(12);
    expect(inherited.body.emailTemplates.every((t: { source: string }) => t.source === 'inherited')).toBe(true);
    expect(inherited.body.emailProvider.source).toBe('inherited');
    expect(inherited.body.auth).toMatchObject({ authIsolation: 'shared', providersSource: 'inherited', domains: [] });

    await app.http.patch(appPath, { tenancyConfig: { brandingScope: 'tenant', emailTemplatesScope: 'tenant' } });
    await app.http.put(`${appPath}/tenants/${tenantId}/branding`, { colors: { primary: '#112233' } });
    await app.http.put(`${appPath}/tenants/${tenantId}/email/templates/welcome`, { subject: 'Hi from the tenant', html: '<p>Hi</p>', text: 'Hi' });
    const customized = (await app.http.get(path)).body;
    expect(customized.branding).toMatchObject({ source: 'customized', colors: { primary: '#112233' } });
    const welcome = customized.emailTemplates.find((t: { key: string }) => t.key === 'welcome');
    expect(welcome).toMatchObject({ subject: 'Hi from the tenant', source: 'customized' });
    expect(customized.emailTemplates.filter((t: { source: string }) => t.source === 'customized')).toHaveLength(1);

    // Back to application-wide: the overrides are kept but hidden.
    await app.http.patch(appPath, { tenancyConfig: { brandingScope: 'application', emailTemplatesScope: 'application' } });
    const hidden = (await app.http.get(path)).body;
    expect(hidden.branding.source).toBe('inherited');
    expect(hidden.branding.colors.primary).not.toBe('#112233');
    await app.http.patch(appPath, { tenancyConfig: { brandingScope: 'tenant' } });
    expect((await app.http.get(path)).body.branding).toMatchObject({ source: 'customized', colors: { primary: '#112233' } });
  });

  it('the three scopes and authIsolation are independent: switching one hides its own overrides alone and changes no other setting, over REST and GraphQL', async () => {
    await app.http.patch(appPath, { tenancyConfig: { brandingScope: 'tenant', emailTemplatesScope: 'tenant', emailProviderScope: 'tenant', authIsolation: 'shared' } });
    const [tenantId] = await createTenants(1);
    const inTenant = `${appPath}/tenants/${tenantId}`;
    expect((await app.http.put(`${inTenant}/branding`, { colors: { primary: '#223344' } })).status).toBe(200);
    expect((await app.http.put(`${inTenant}/email/templates/invitation`, { subject: 'Join us', html: '<p>Join</p>', text: 'Join' })).status).toBe(200);
    expect((await app.http.put(`${inTenant}/email/provider`, { type: 'sendgrid', fromAddress: 'a@tenant.test', secrets: { apiKey: 'SG.key' } })).status).toBe(200);
    const sources = async () => {
      const rest = (await app.http.get(`${inTenant}/configuration`)).body;
      const graphql = await app.http.graphql(
        'query($appId: UUID!, $tenantId: UUID!) { tenantConfiguration(appId: $appId, tenantId: $tenantId) { branding { source } emailTemplates { key source } emailProvider { source } } }',
        { appId: app.root.applicationId, tenantId },
      );
      const shown = {
        branding: rest.branding.source,
        invitation: rest.emailTemplates.find((t: { key: string }) => t.key === 'invitation').source,
        emailProvider: rest.emailProvider.source,
      };
      const configuration = graphql.body.data.tenantConfiguration;
      expect({
        branding: configuration.branding.source,
        invitation: configuration.emailTemplates.find((t: { key: string }) => t.key === 'invitation').source,
        emailProvider: configuration.emailProvider.source,
      }).toEqual(shown);
      return shown;
    };
    const all = { branding: 'customized', invitation: 'customized', emailProvider: 'customized' };
    expect(await sources()).toEqual(all);
    for (const [scope, section] of [['brandingScope', 'branding'], ['emailTemplatesScope', 'invitation'], ['emailProviderScope', 'emailProvider']] as const) {
      const switched = await app.http.patch(appPath, { tenancyConfig: { [scope]: 'application' } });
      expect(switched.body.tenancyConfig, scope).toEqual({ brandingScope: 'tenant', emailTemplatesScope: 'tenant', emailProviderScope: 'tenant', authIsolation: 'shared', [scope]: 'application' });
      expect(await sources(), scope).toEqual({ ...all, [section]: 'inherited' });
      await app.http.patch(appPath, { tenancyConfig: { [scope]: 'tenant' } });
      expect(await sources(), scope).toEqual(all);
    }
    // authIsolation there and back leaves the scopes and their overrides as they were.
    const isolated = await app.http.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } });
    expect(isolated.body.tenancyConfig).toEqual({ brandingScope: 'tenant', emailTemplatesScope: 'tenant', emailProviderScope: 'tenant', authIsolation: 'isolated' });
    expect(await sources()).toEqual(all);
    const shared = await app.http.patch(appPath, { tenancyConfig: { authIsolation: 'shared' } });
    expect(shared.body.tenancyConfig).toEqual({ brandingScope: 'tenant', emailTemplatesScope: 'tenant', emailProviderScope: 'tenant', authIsolation: 'shared' });
    expect(await sources()).toEqual(all);
  });

  it('refuses another application (404), another tenant’s key (403) and a missing tenant (404)', async () => {
    const [tenantId, otherTenant] = await createTenants(2);
    const other = await app.bootstrapAnother();
    expect((await app.as({ apiKey: other.apiKey }).get(`${appPath}/tenants/${tenantId}/configuration`)).status).toBe(404);
    const key = await app.http.post('/api-keys', { name: 'tenant key', permissions: ['*'], tenantId: otherTenant });
    const tenantKey = app.as({ apiKey: key.body.secret });
    const refused = await tenantKey.get(`${appPath}/tenants/${tenantId}/configuration`);
    expect(refused.status).toBe(403);
    expect((await tenantKey.get(`${appPath}/tenants/${otherTenant}/configuration`)).status).toBe(200);
    expect((await app.http.get(`${appPath}/tenants/${newId()}/configuration`)).status).toBe(404);
  });

  it('needs the read permission of every section it shows: without any one of them, 403', async () => {
    const [tenantId] = await createTenants(1);
    const sections = ['tenants:read', 'branding:read', 'email:read', 'policies:read', 'auth_providers:read', 'domains:read'];
    const reader = async (permissions: string[]) =>
      app.as({ apiKey: (await app.http.post('/api-keys', { name: 'configuration reader', permissions })).body.secret });
    expect((await (await reader(sections)).get(`${appPath}/tenants/${tenantId}/configuration`)).status).toBe(200);
    for (const missing of sections) {
      const refused = await (await reader(sections.filter((p) => p !== missing))).get(`${appPath}/tenants/${tenantId}/configuration`);
      expect(refused.body, missing).toEqual({ code: 'forbidden', message: `Missing permission ${missing}` });
    }
  });

  it('a tenant write selecting the configuration it may not read is refused before it writes anything', async () => {
    const [tenantId] = await createTenants(1);
    const key = await app.http.post('/api-keys', { name: 'tenant writer', permissions: ['tenants:read', 'tenants:write'] });
    const writer = app.as({ apiKey: key.body.secret });
    const audits = async () =>
      (await app.gatehouse.services.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from audit_log where target_id = ?', [tenantId]))[0]!.n;
    const before = await audits();
    const rename = (selection: string, fragments = '') =>
      writer.graphql(
        `mutation($appId: UUID!, $tenantId: UUID!) { updateTenant(appId: $appId, tenantId: $tenantId, input: { name: "Renamed" }) { ${selection} } } ${fragments}`,
        { appId: app.root.applicationId, tenantId },
      );
    // Directly, and through a named fragment holding an inline one.
    const viaFragment = 'fragment Configured on Tenant { ... on Tenant { configuration { tenantId } } }';
    for (const [selection, fragments] of [['id configuration { tenantId }', ''], ['id ...Configured', viaFragment]] as const) {
      const refused = await rename(selection, fragments);
      expect(refused.status, selection).toBe(403);
      expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'forbidden' });
    }
    expect((await app.http.get(`${appPath}/tenants/${tenantId}`)).body.name).not.toBe('Renamed');
    expect(await audits()).toBe(before);
    // Without the configuration, the same key renames; with every read permission, the answer holds it.
    const renamed = await writer.graphql(
      `mutation($appId: UUID!, $tenantId: UUID!) { updateTenant(appId: $appId, tenantId: $tenantId, input: { name: "Renamed" }) { name } }`,
      { appId: app.root.applicationId, tenantId },
    );
    expect(renamed.body.data).toEqual({ updateTenant: { name: 'Renamed' } });
    const configured = await app.http.graphql(
      `mutation($appId: UUID!, $tenantId: UUID!) { updateTenant(appId: $appId, tenantId: $tenantId, input: { name: "Again" }) { configuration { tenantId } } }`,
      { appId: app.root.applicationId, tenantId },
    );
    expect(configured.body.data).toEqual({ updateTenant: { configuration: { tenantId } } });
  });

  it('a page of N tenants with their configuration costs the same SQL statements for N = 1, 10 and 100', async () => {
    const fresh = await app.bootstrapAnother();
    const client = app.as({ apiKey: fresh.apiKey });
    const counts: Record<number, number> = {};
    let created = 0;
    for (const n of [1, 10, 100]) {
      while (created < n) {
        await client.post(`/applications/${fresh.applicationId}/tenants`, { name: `Batch ${created}` });
        created += 1;
      }
      const before = app.queries.length;
      const page = await client.graphql(TENANT_PAGE_WITH_CONFIGURATION, { appId: fresh.applicationId, pageSize: n });
      counts[n] = app.queries.length - before;
      expect(page.body.errors).toBeUndefined();
      expect(page.body.data.tenants.data).toHaveLength(n);
      expect(page.body.data.tenants.data.every((t: { configuration: { emailTemplates: unknown[] } }) => t.configuration.emailTemplates.length === 12)).toBe(true);
    }
    expect(counts[10]).toBe(counts[1]);
    expect(counts[100]).toBe(counts[1]);
    expect(counts[1]).toBeLessThanOrEqual(10);
  });

  it('a page of N isolated tenants, half of them customizing every feature, costs the same SQL statements for N = 1, 10 and 100, every field selected', async () => {
    const fresh = await app.bootstrapAnother();
    const client = app.as({ apiKey: fresh.apiKey });
    const appPath = `/applications/${fresh.applicationId}`;
    expect((await client.patch(appPath, { tenancyConfig: { brandingScope: 'tenant', emailTemplatesScope: 'tenant', emailProviderScope: 'tenant', authIsolation: 'isolated' } })).status).toBe(200);
    const counts: Record<number, number> = {};
    let created = 0;
    for (const n of [1, 10, 100]) {
      while (created < n) {
        const tenantId = (await client.post(`${appPath}/tenants`, { name: `Custom ${created}` })).body.id as string;
        const inTenant = `${appPath}/tenants/${tenantId}`;
        // Every other tenant holds an override of each feature; the rest inherit.
        if (created % 2 === 0) {
          expect((await client.put(`${inTenant}/branding`, { colors: { primary: '#123456' } })).status).toBe(200);
          expect((await client.put(`${inTenant}/email/templates/welcome`, { subject: 'Hi', html: '<p>Hi</p>', text: 'Hi' })).status).toBe(200);
          expect((await client.put(`${inTenant}/email/provider`, { type: 'sendgrid', fromAddress: 'a@tenant.test', secrets: { apiKey: 'SG.key' } })).status).toBe(200);
          expect((await client.put(`${inTenant}/policies/password`, { minLength: 12 })).status).toBe(200);
          expect((await client.put(`${inTenant}/policies/mfa`, { enforcement: 'required' })).status).toBe(200);
          expect((await client.post(`${inTenant}/auth-providers`, { type: 'oauth', config: { provider: 'google', clientId: `client-${created}` }, secrets: { clientSecret: 'secret' } })).status).toBe(201);
          expect((await client.post(`${inTenant}/domains`, { hostname: `t${created}-${crypto.randomUUID().slice(0, 8)}.example.com` })).status).toBe(201);
        }
        created += 1;
      }
      const before = app.queries.length;
      const page = await client.graphql(FULL_TENANT_PAGE, { appId: fresh.applicationId, pageSize: n });
      counts[n] = app.queries.length - before;
      expect(page.body.errors).toBeUndefined();
      const tenants = page.body.data.tenants.data as { configuration: { branding: { source: string }; auth: { providersSource: string; domains: unknown[] } } }[];
      expect(tenants).toHaveLength(n);
      expect(tenants.filter((t) => t.configuration.branding.source === 'customized')).toHaveLength(Math.ceil(n / 2));
      expect(tenants.filter((t) => t.configuration.auth.providersSource === 'customized')).toHaveLength(Math.ceil(n / 2));
      expect(tenants.filter((t) => t.configuration.auth.domains.length === 1)).toHaveLength(Math.ceil(n / 2));
    }
    expect(counts[10]).toBe(counts[1]);
    expect(counts[100]).toBe(counts[1]);
    expect(counts[1]).toBeLessThanOrEqual(10);
  });
});
