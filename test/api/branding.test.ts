import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog, Setting } from '../../src/db/entities/index.ts';
import { UNBRANDED_COPY_KEYS } from '../../src/domain/branding/copy/unbranded.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { issueTestKey } from '../support/keys.ts';

let app: TestApp;
let appPath: string;
beforeAll(async () => {
  app = await startTestApp();
  appPath = `/applications/${app.root.applicationId}`;
});
afterAll(async () => app?.close());

const DEFAULTS = { logoUrl: null, faviconUrl: null, colors: { primary: '#4f46e5', background: '#ffffff', text: '#111827' }, copy: {} };
const ACME = {
  logoUrl: 'https://cdn.acme.test/logo.png',
  faviconUrl: 'https://cdn.acme.test/favicon.ico',
  colors: { primary: '#FF0000', background: '#fafafa', text: '#222222' },
  copy: { 'login.title': 'Welcome to Acme', 'login.subtitle': 'Use your work e-mail' },
};

async function brandingScope(value: 'application' | 'tenant') {
  const response = await app.http.patch(appPath, { tenancyConfig: { brandingScope: value } });
  expect(response.status).toBe(200);
}

const tenantBranding = (tenantId: string) => `${appPath}/tenants/${tenantId}/branding`;

describe('branding', () => {
  it('shows the built-in defaults, then the application value a PUT stores (replacing the whole object)', async () => {
    const initial = await app.http.get('/branding');
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({ ...DEFAULTS, source: null, updatedAt: null });

    const put = await app.http.put('/branding', ACME);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ ...ACME, colors: { ...ACME.colors, primary: '#ff0000' }, source: null });
    expect(put.body.updatedAt).toEqual(expect.any(String));
    expect((await app.http.get(`${appPath}/branding`)).body).toEqual(put.body);

    // PUT replaces: what the body leaves out returns to its default.
    const partial = await app.http.put('/branding', { colors: { primary: '#00aa00' } });
    expect(partial.body).toMatchObject({ ...DEFAULTS, colors: { ...DEFAULTS.colors, primary: '#00aa00' } });
    const reset = await app.http.put('/branding', {});
    expect(reset.body).toMatchObject(DEFAULTS);
  });

  it('refuses invalid values with 422 naming the field, and changes nothing', async () => {
    await app.http.put('/branding', ACME);
    const before = (await app.http.get('/branding')).body;
    const cases: [unknown, string][] = [
      [{ logoUrl: 'http://cdn.acme.test/logo.png' }, 'logoUrl'],
      [{ logoUrl: 'not a url' }, 'logoUrl'],
      [{ faviconUrl: 'javascript:alert(1)' }, 'faviconUrl'],
      [{ logoUrl: 'https://user:pass@cdn.acme.test/logo.png' }, 'logoUrl'],
      [{ colors: { primary: 'red' } }, 'colors.primary'],
      [{ colors: { background: '#fff' } }, 'colors.background'],
      [{ colors: { text: 12 } }, 'colors.text'],
      [{ copy: { 'login.title': 42 } }, 'copy.login.title'],
      [{ copy: { 'de:login.title': 'x'.repeat(2001) } }, 'copy.de:login.title'],
      [{ copy: { 'bad key!': 'x' } }, 'copy'],
      // Keys name a text of the pages, alone or after a language of the pages: anything else would be stored for nothing.
      [{ copy: { 'signIn.title': 'x' } }, 'copy'],
      [{ copy: { 'it:login.title': 'x' } }, 'copy'],
      // Shown only where no application is known yet (a sign-in opened at another host): no branding reaches it.
      [{ copy: { 'error.misdirected': 'x' } }, 'copy'],
      [{ copy: { 'de:error.misdirected': 'x' } }, 'copy'],
      // Shown only in the plain look, on a surface of no application (an address of none) or of several (a logout there).
      [{ copy: { 'error.unknownSurface': 'x' } }, 'copy'],
      [{ copy: { 'refusal.logoutNoApplication': 'x' } }, 'copy'],
      [{ copy: { 'fr:refusal.logoutDevice': 'x' } }, 'copy'],
      ...[...UNBRANDED_COPY_KEYS].map((key): [unknown, string] => [{ copy: { [key]: 'x' } }, 'copy']),
      [{ copy: { 'de:signIn.title': 'x' } }, 'copy'],
      [{ copy: { 'de-DE:login.title': 'x' } }, 'copy'],
      [{ copy: { 'de:': 'x' } }, 'copy'],
      [{ copy: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v'])) }, 'copy'],
      [{ copy: ['a'] }, 'copy'],
      [{ colour: '#ffffff' }, 'colour'],
      // Hosts a Content-Security-Policy cannot name: the pages' img-src could never allow the logo.
      [{ logoUrl: 'https://my_cdn.acme.test/logo.png' }, 'logoUrl'],
      [{ faviconUrl: 'https://acme.test./favicon.ico' }, 'faviconUrl'],
      // Short as typed, over the limit once percent-encoded as stored.
      [{ logoUrl: `https://cdn.acme.test/${'"'.repeat(1000)}` }, 'logoUrl'],
      [{ copy: { 'login.title': '' } }, 'copy.login.title'],
      [{ copy: { 'login.email': ' \n ' } }, 'copy.login.email'],
      // Invisible characters alone (zero-width space, word joiner, a Hangul filler) show as blank as spaces do.
      [{ copy: { 'login.title': '\u200b' } }, 'copy.login.title'],
      [{ copy: { 'de:login.submit': ' \u2060\ufeff ' } }, 'copy.de:login.submit'],
      [{ copy: { 'login.subtitle': '\u3164' } }, 'copy.login.subtitle'],
      // A placeholder the pages never fill in for its key would show as typed: one the key does not offer, or a typo.
      [{ copy: { 'login.title': 'Hello {user}' } }, 'copy.login.title'],
      [{ copy: { 'de:spent.restart': 'Zurück zu {aplication}' } }, 'copy.de:spent.restart'],
      [{ copy: { 'login.title': 'Hi {name}', 'fr:forgot.sentText': 'Envoyé à {email} pour {user}' } }, 'copy.fr:forgot.sentText'],
    ];
    for (const [body, field] of cases) {
      const response = await app.http.put('/branding', body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body, JSON.stringify(body)).toMatchObject({ code: 'validation_error', field });
    }
    expect((await app.http.get('/branding')).body).toEqual(before);
    // The refused key is quoted escaped: a quote or a control character in it cannot pass for the message's own text.
    const oddKey = await app.http.put('/branding', { copy: { 'a"\u0000\nb': 'x' } });
    expect(oddKey.body.message).toContain('got "a\\"\\u0000\\nb"');
    // A lone surrogate is valid JSON but no Unicode text (PostgreSQL refuses it: a 500 otherwise).
    const lone = await app.http.request('PUT', '/api/v1/branding', { raw: '{"copy":{"title":"Hi \\ud800"}}', headers: { 'content-type': 'application/json' } });
    expect(lone.status).toBe(422);
    expect(lone.body).toMatchObject({ code: 'validation_error', field: 'body' });
    expect((await app.http.get('/branding')).body).toEqual(before);
  });

  it('a text may hold the placeholders its key offers ({name} always) and braces that are no placeholder', async () => {
    const copy = {
      'login.title': 'Welcome to {name}',
      'de:forgot.sentText': 'Ein Link ging an {email}, für {name}.',
      'spent.restart': 'Back to {client}',
      'login.submit': 'Go { now } {} {',
    };
    const put = await app.http.put('/branding', { copy });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await app.http.get('/branding')).body.copy).toEqual(copy);
    const refused = await app.http.put('/branding', { copy: { 'login.title': 'Welcome {email}' } });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'copy.login.title' });
    expect(refused.body.message).toContain('{name}');
    expect((await app.http.get('/branding')).body.copy).toEqual(copy);
    await app.http.put('/branding', {});
  });

  it('a tenant override with a placeholder its key does not fill in is 422, and nothing is stored', async () => {
    await brandingScope('tenant');
    const tenant = await app.createTenant('Placeholders');
    await app.http.put(tenantBranding(tenant), { copy: { 'login.title': 'Kept {name}' } });
    for (const [key, text] of [['login.title', 'Hi {user}'], ['de:login.subtitle', 'weiter zu {aplication}'], ['es:logout.doneText', '{client} cerrado']]) {
      const refused = await app.http.put(tenantBranding(tenant), { copy: { 'login.submit': 'Go', [key!]: text } });
      expect(refused.status, key).toBe(422);
      expect(refused.body, key).toMatchObject({ code: 'validation_error', field: `copy.${key}` });
    }
    expect((await app.http.get(tenantBranding(tenant))).body.copy).toEqual({ 'login.title': 'Kept {name}' });
  });

  it('a text stored before placeholders were checked may be saved again as it is, by the application and a tenant starting from it', async () => {
    await brandingScope('tenant');
    const tenant = await app.createTenant('Stored before the rule');
    await app.http.put('/branding', { copy: { 'login.title': 'Hello' } });
    await app.sql("update setting set value = jsonb_set(value, '{copy,login.title}', '\"Hello {user}\"') where application_id = ? and feature = 'branding' and tenant_id is null", [app.root.applicationId]);
    const legacy = { 'login.title': 'Hello {user}' };
    const saved = await app.http.put('/branding', { colors: { primary: '#123456' }, copy: legacy });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.copy).toEqual(legacy);
    // A tenant's form starts from the application's texts: the one it did not write passes, a new one is checked.
    const inherited = await app.http.put(tenantBranding(tenant), { copy: { ...legacy, 'login.submit': 'Go' } });
    expect(inherited.status, JSON.stringify(inherited.body)).toBe(200);
    for (const copy of [{ 'login.title': 'Hi {user}' }, { 'de:login.title': 'Hello {user}' }, { ...legacy, 'login.subtitle': 'As {user}' }]) {
      const refused = await app.http.put('/branding', { copy });
      expect(refused.status, JSON.stringify(copy)).toBe(422);
    }
    expect((await app.http.get('/branding')).body.copy).toEqual(legacy);
    await app.http.delete(tenantBranding(tenant));
    await app.http.put('/branding', {});
  });

  it('a tenant inherits while brandingScope = application; writing an override is 409 and changes nothing', async () => {
    await brandingScope('application');
    await app.http.put('/branding', ACME);
    const a = await app.createTenant('Inherits A');
    const read = await app.http.get(tenantBranding(a));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ ...ACME, colors: { ...ACME.colors, primary: '#ff0000' }, source: 'inherited' });

    const refused = await app.http.put(tenantBranding(a), { colors: { primary: '#123456' } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'tenant_customization_disabled', field: 'tenancyConfig.brandingScope' });
    expect((await app.http.get(tenantBranding(a))).body).toEqual(read.body);
  });

  it('per tenant: overrides apply to their tenant only, application changes flow to inheriting tenants, removal restores inheritance', async () => {
    await brandingScope('tenant');
    await app.http.put('/branding', ACME);
    const a = await app.createTenant('Custom A');
    const b = await app.createTenant('Plain B');
    expect((await app.http.get(tenantBranding(a))).body.source).toBe('inherited');

    const override = await app.http.put(tenantBranding(a), { logoUrl: 'https://a.test/logo.svg', colors: { primary: '#123456' }, copy: { 'login.title': 'Hi A' } });
    expect(override.status).toBe(200);
    expect(override.body).toMatchObject({
      logoUrl: 'https://a.test/logo.svg',
      faviconUrl: null,
      colors: { primary: '#123456', background: '#ffffff', text: '#111827' },
      copy: { 'login.title': 'Hi A' },
      source: 'customized',
    });
    expect((await app.http.get(tenantBranding(a))).body).toEqual(override.body);
    expect((await app.http.get(tenantBranding(b))).body).toMatchObject({ logoUrl: ACME.logoUrl, source: 'inherited' });
    expect((await app.http.get('/branding')).body).toMatchObject({ logoUrl: ACME.logoUrl, source: null });

    await app.http.put('/branding', { ...ACME, colors: { primary: '#0000ff' } });
    expect((await app.http.get(tenantBranding(b))).body).toMatchObject({ colors: { primary: '#0000ff' }, source: 'inherited' });
    expect((await app.http.get(tenantBranding(a))).body).toMatchObject({ colors: { primary: '#123456' }, source: 'customized' });

    const removed = await app.http.delete(tenantBranding(a));
    expect(removed.status).toBe(204);
    expect((await app.http.get(tenantBranding(a))).body).toMatchObject({ logoUrl: ACME.logoUrl, colors: { primary: '#0000ff' }, source: 'inherited' });
    const again = await app.http.delete(tenantBranding(a));
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('not_found');

    // With an Idempotency-Key, a retried removal replays its first answer.
    await app.http.put(tenantBranding(a), { colors: { primary: '#010203' } });
    const key = crypto.randomUUID();
    expect((await app.http.delete(tenantBranding(a), { headers: { 'idempotency-key': key } })).status).toBe(204);
    const replay = await app.http.delete(tenantBranding(a), { headers: { 'idempotency-key': key } });
    expect(replay.status).toBe(204);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('a tenant override refuses the tenant picker’s texts, shown only before a tenant is chosen, in the application’s look', async () => {
    await brandingScope('tenant');
    const tenant = await app.createTenant('Picker');
    await app.http.put(tenantBranding(tenant), { copy: { 'login.title': 'Kept' } });
    for (const key of ['tenant.title', 'de:tenant.label', 'tenant.submit', 'tenant.error']) {
      const refused = await app.http.put(tenantBranding(tenant), { copy: { 'login.title': 'Hi', [key]: 'Pick' } });
      expect(refused.status, key).toBe(422);
      expect(refused.body, key).toMatchObject({ code: 'validation_error', field: 'copy' });
    }
    expect((await app.http.get(tenantBranding(tenant))).body.copy).toEqual({ 'login.title': 'Kept' });
    // The application's value is what the picker shows.
    const application = await app.http.put('/branding', { copy: { 'tenant.title': 'Pick your team' } });
    expect(application.status).toBe(200);
    expect(application.body.copy).toEqual({ 'tenant.title': 'Pick your team' });
    await app.http.put('/branding', {});
  });

  it('overrides are kept but hidden when the scope returns to application, and reappear when switched back', async () => {
    await brandingScope('tenant');
    const a = await app.createTenant('Hidden A');
    await app.http.put('/branding', ACME);
    await app.http.put(tenantBranding(a), { colors: { primary: '#abcdef' } });

    await brandingScope('application');
    const hidden = await app.http.get(tenantBranding(a));
    expect(hidden.body).toMatchObject({ logoUrl: ACME.logoUrl, colors: { primary: '#ff0000' }, source: 'inherited' });

    // Removing a hidden override is a write like a PUT: refused, on both transports, and the override is kept.
    const audited = () => app.gatehouse.services.orm.em.fork().count(AuditLog, { applicationId: app.root.applicationId, tenantId: a }, { filters: false });
    const recordsBefore = await audited();
    const refused = await app.http.delete(tenantBranding(a));
    expect(refused).toMatchObject({ status: 409, body: { code: 'tenant_customization_disabled', field: 'tenancyConfig.brandingScope' } });
    const overGraphQL = await app.http.graphql(`mutation { removeBrandingOverride(appId: "${app.root.applicationId}", tenantId: "${a}") }`);
    expect(overGraphQL.body.errors?.[0]?.extensions).toEqual({ code: 'tenant_customization_disabled', status: 409, field: 'tenancyConfig.brandingScope' });
    expect((await (await issueTestKey(app, { tenantId: a })).delete('/branding')).status).toBe(409);
    expect(await audited()).toBe(recordsBefore);

    await brandingScope('tenant');
    const back = await app.http.get(tenantBranding(a));
    expect(back.body).toMatchObject({ logoUrl: null, colors: { primary: '#abcdef' }, source: 'customized' });
  });

  it('deleting a tenant deletes its hidden override too: only the override route keeps it', async () => {
    await brandingScope('tenant');
    const doomed = await app.createTenant('Hidden and deleted');
    expect((await app.http.put(tenantBranding(doomed), { colors: { primary: '#123456' } })).status).toBe(200);
    await brandingScope('application');
    expect((await app.http.delete(`${appPath}/tenants/${doomed}`)).status).toBe(204);
    const rows = await app.gatehouse.services.orm.em.fork().count(Setting, { applicationId: app.root.applicationId, tenantId: doomed }, { filters: false });
    expect(rows).toBe(0);
    await brandingScope('tenant');
  });

  it('removing an override needs a tenant: 422 on tenantId at application scope', async () => {
    const response = await app.http.delete('/branding');
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'validation_error', field: 'tenantId' });
    expect((await app.http.delete(`${appPath}/branding`)).status).toBe(422);
  });

  it('a tenant-scoped key acts on its own tenant only: never the application value, never another tenant', async () => {
    await brandingScope('tenant');
    await app.http.put('/branding', ACME);
    const own = await app.createTenant('Key owner');
    const other = await app.createTenant('Key other');
    const key = await issueTestKey(app, { tenantId: own });

    expect((await key.get('/branding')).body).toMatchObject({ logoUrl: ACME.logoUrl, source: 'inherited' });
    const put = await key.put('/branding', { colors: { primary: '#0a0b0c' } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ colors: { primary: '#0a0b0c' }, source: 'customized' });
    expect((await app.http.get(tenantBranding(own))).body).toMatchObject({ colors: { primary: '#0a0b0c' }, source: 'customized' });
    // The application value and the sibling tenant are untouched.
    expect((await app.http.get('/branding')).body).toMatchObject({ logoUrl: ACME.logoUrl, colors: { primary: '#ff0000' }, source: null });
    expect((await app.http.get(tenantBranding(other))).body).toMatchObject({ colors: { primary: '#ff0000' }, source: 'inherited' });

    for (const [method, body] of [['GET'], ['PUT', { colors: { primary: '#000000' } }], ['DELETE']] as const) {
      const response = await key.request(method, `/api/v1${tenantBranding(other)}`, body === undefined ? {} : { body });
      expect(response.status, method).toBe(403);
      expect(response.body.code).toBe('forbidden');
    }
    expect((await app.http.get(tenantBranding(other))).body.source).toBe('inherited');

    // With the switch back at application, the tenant key's write is a refused override, not an application write.
    await brandingScope('application');
    const refused = await key.put('/branding', { colors: { primary: '#111111' } });
    expect(refused.status).toBe(409);
    expect((await app.http.get('/branding')).body.colors.primary).toBe('#ff0000');
    await brandingScope('tenant');

    const removed = await key.delete('/branding');
    expect(removed.status).toBe(204);
    expect((await key.get('/branding')).body.source).toBe('inherited');
  });

  it('enforces branding:read, branding:write and branding:delete', async () => {
    await brandingScope('tenant');
    const t = await app.createTenant('Permissions');
    const reader = await issueTestKey(app, { tenantId: t, permissions: ['branding:read'] });
    expect((await reader.get('/branding')).status).toBe(200);
    const write = await reader.put('/branding', { colors: { primary: '#222222' } });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('forbidden');
    expect((await app.http.get(tenantBranding(t))).body.source).toBe('inherited');

    // A tenant's override takes tenant_overrides:write besides the area's own permission.
    const notOverriding = await issueTestKey(app, { tenantId: t, permissions: ['branding:write'] });
    expect((await notOverriding.put('/branding', { colors: { primary: '#222222' } })).body.message).toBe('Missing permission tenant_overrides:write');
    const writer = await issueTestKey(app, { tenantId: t, permissions: ['branding:write', 'tenant_overrides:write'] });
    expect((await writer.get('/branding')).status).toBe(403);
    expect((await writer.put('/branding', { colors: { primary: '#222222' } })).status).toBe(200);
    expect((await writer.delete('/branding')).status).toBe(403);
    const deleter = await issueTestKey(app, { tenantId: t, permissions: ['branding:delete', 'tenant_overrides:write'] });
    expect((await deleter.delete('/branding')).status).toBe(204);
  });

  it('another application’s tenant is not found; an unknown tenant is not found', async () => {
    const other = await app.bootstrapAnother();
    const foreign = app.as({ apiKey: other.apiKey });
    const theirTenant = (await foreign.post(`/applications/${other.applicationId}/tenants`, { name: 'Theirs' })).body.id as string;
    const viaOurApp = await app.http.get(`${appPath}/tenants/${theirTenant}/branding`);
    expect(viaOurApp.status).toBe(404);
    const viaTheirApp = await app.http.put(`/applications/${other.applicationId}/tenants/${theirTenant}/branding`, {});
    expect(viaTheirApp.status).toBe(404);
    expect((await app.http.get(`${appPath}/tenants/01890000-0000-7000-8000-000000000000/branding`)).status).toBe(404);
    expect((await foreign.get(`/applications/${other.applicationId}/tenants/${theirTenant}/branding`)).status).toBe(200);
  });

  it('a single-tenant application has its own branding; tenant forms are not found', async () => {
    const single = (await app.http.post('/applications', { name: 'Single' })).body;
    const client = app.as({ apiKey: single.initialApiKey.secret });
    expect((await client.get('/branding')).body).toMatchObject(DEFAULTS);
    const put = await client.put(`/applications/${single.id}/branding`, { colors: { primary: '#336699' } });
    expect(put.status).toBe(200);
    expect((await client.get('/branding')).body.colors.primary).toBe('#336699');
    // Our application's branding is unaffected.
    expect((await app.http.get('/branding')).body.colors.primary).not.toBe('#336699');
    expect((await client.get(`/applications/${single.id}/tenants/01890000-0000-7000-8000-000000000000/branding`)).status).toBe(404);
  });

  it('concurrent first writes of a value all succeed; the last one wins', async () => {
    const fresh = (await app.http.post('/applications', { name: 'Concurrent', multiTenant: true })).body;
    const client = app.as({ apiKey: fresh.initialApiKey.secret });
    const colors = Array.from({ length: 12 }, (_, i) => `#${(i + 16).toString(16)}0000`);
    const responses = await Promise.all(colors.map((primary) => client.put('/branding', { colors: { primary } })));
    expect(responses.map((r) => r.status)).toEqual(colors.map(() => 200));
    expect(colors).toContain((await client.get('/branding')).body.colors.primary);
  });

  it('records every change in the audit log', async () => {
    await brandingScope('tenant');
    const t = await app.createTenant('Audited');
    await app.http.put('/branding', { colors: { primary: '#121212' } });
    await app.http.put(tenantBranding(t), { colors: { primary: '#343434' } });
    await app.http.delete(tenantBranding(t));
    const em = app.gatehouse.services.orm.em.fork();
    // filters off: the test reads the log of the whole application, as the audit search will.
    const records = await em.find(AuditLog, { applicationId: app.root.applicationId, targetType: 'branding' }, { filters: false, orderBy: { id: 'asc' } });
    const mine = records.filter((r) => r.tenantId === t || (r.tenantId === null && (r.after as { colors?: { primary?: string } } | null)?.colors?.primary === '#121212'));
    expect(mine.map((r) => [r.action, r.tenantId])).toEqual([
      ['branding.updated', null],
      ['branding.updated', t],
      ['branding.override.removed', t],
    ]);
    expect(mine[2]?.before).toMatchObject({ colors: { primary: '#343434' } });
  });

  it('works over GraphQL with the same codes, fields and statuses', async () => {
    await brandingScope('tenant');
    const t = await app.createTenant('GraphQL');
    const fields = 'logoUrl colors { primary background text } copy source';
    const put = await app.http.graphql(
      `mutation($appId: UUID, $tenantId: UUID, $input: BrandingInput!) { putBranding(appId: $appId, tenantId: $tenantId, input: $input) { ${fields} } }`,
      { appId: app.root.applicationId, tenantId: t, input: { colors: { primary: '#5a5a5a' }, copy: { 'login.title': 'GQL' } } },
    );
    expect(put.body.errors).toBeUndefined();
    expect(put.body.data.putBranding).toMatchObject({ colors: { primary: '#5a5a5a' }, copy: { 'login.title': 'GQL' }, source: 'customized' });
    const read = await app.http.graphql(`query($tenantId: UUID) { branding(tenantId: $tenantId) { ${fields} } }`, { tenantId: t });
    expect(read.body.data.branding).toEqual(put.body.data.putBranding);

    const invalid = await app.http.graphql(`mutation { putBranding(input: { colors: { primary: "blue" } }) { source } }`);
    expect(invalid.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'colors.primary', status: 422 });

    await brandingScope('application');
    const disabled = await app.http.graphql(`mutation($tenantId: UUID) { putBranding(tenantId: $tenantId, input: {}) { source } }`, { tenantId: t });
    expect(disabled.status).toBe(409);
    expect(disabled.body.errors?.[0]?.extensions).toMatchObject({ code: 'tenant_customization_disabled', status: 409 });

    const key = await issueTestKey(app, { tenantId: t, permissions: ['branding:read'] });
    const forbidden = await key.graphql(`mutation { removeBrandingOverride }`);
    expect(forbidden.body.errors?.[0]?.extensions).toMatchObject({ code: 'forbidden', status: 403 });
    const remove = () => app.http.graphql(`mutation($tenantId: UUID) { removeBrandingOverride(tenantId: $tenantId) }`, { tenantId: t });
    expect((await remove()).body.errors?.[0]?.extensions).toMatchObject({ code: 'tenant_customization_disabled', status: 409 });
    await brandingScope('tenant');
    expect((await remove()).body.data).toEqual({ removeBrandingOverride: true });
    const atApplication = await app.http.graphql(`mutation { removeBrandingOverride }`);
    expect(atApplication.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'tenantId', status: 422 });
  });
});
