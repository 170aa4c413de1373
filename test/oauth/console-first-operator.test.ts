import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { DEFAULT_OPERATOR_EMAIL, dashboardClientOf, ensureConsoles, ensureOrganizationConsole, laterOperatorLinks } from '../../src/domain/console/console.ts';
import { bootstrapOnFirstStart } from '../../src/process/first-start.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar } from '../support/cookie-jar.ts';

/**
 * API.md, Bootstrap: without GATEHOUSE_BOOTSTRAP_ADMIN_EMAIL and _PASSWORD, the first start prints a one-time link at
 * which the first operator sets their password; with them, they must be an address and a password the console takes.
 */
let app: TestApp;
const NEW_PASSWORD = 'Operator-Sets-This-7';
const start = () => ensureConsoles(app.gatehouse.services.orm, app.gatehouse.services.config.publicUrl, randomUUID());

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
});
afterAll(async () => app?.close());

describe('the first operator without a configured password', () => {
  it('gets a one-time link at each start until they set it, then none', async () => {
    const first = await start();
    expect(first?.email).toBe(DEFAULT_OPERATOR_EMAIL);
    expect(first?.passwordLink).toMatch(new RegExp(`^${app.gatehouse.services.config.publicUrl}/account/reset-password\\?token=`));
    const again = await start();
    expect(again?.email).toBe(DEFAULT_OPERATOR_EMAIL);
    expect(again?.passwordLink).not.toBe(first?.passwordLink);

    const jar = new CookieJar();
    // A restart's link replaces the one before.
    expect((await jar.visit(first!.passwordLink!)).status).toBe(400);
    const form = await jar.visit(again!.passwordLink!);
    expect(form.status).toBe(200);
    expect(form.body).toContain(DEFAULT_OPERATOR_EMAIL);
    expect((await jar.submit(form, { password: 'password' })).status).toBe(400);
    const set = await jar.submit(form, { password: NEW_PASSWORD });
    expect(set.status, set.body).toBe(200);
    // On to the dashboard, its client's login URI (told the issuer), not the service's root.
    const { publicUrl } = app.gatehouse.services.config;
    expect(set.body).toContain(`<a href="${publicUrl}/dashboard/?iss=${encodeURIComponent(publicUrl)}">Continue to Gatehouse dashboard</a>`);
    expect(await start()).toBeNull();
    expect((await jar.visit(again!.passwordLink!)).status).toBe(400);

    const [operator] = await app.sql<{ id: string; application_id: string }>('select id, application_id from app_user where email = ?', [DEFAULT_OPERATOR_EMAIL]);
    const bearer = await app.mintAccessToken({ sub: operator!.id, app_id: operator!.application_id });
    const managed = await app.as({ bearer }).get('/managed-applications');
    expect(managed.body.data.map((application: { id: string }) => application.id)).toEqual([app.root.applicationId]);
  });
});

describe('an organization bootstrapped by the command while the service runs', () => {
  const made = (organizationId: string) =>
    ensureOrganizationConsole(app.gatehouse.services.orm, app.gatehouse.services.config.publicUrl, randomUUID(), organizationId);

  it('has its console, dashboard client and first operator at once, who sets a password at the link and manages its application', async () => {
    const other = await app.bootstrapAnother();
    const first = await made(other.organizationId);
    expect(first?.email).toBe(DEFAULT_OPERATOR_EMAIL);
    expect(first?.passwordLink).toMatch(new RegExp(`^${app.gatehouse.services.config.publicUrl}/account/reset-password\\?token=`));
    const dashboard = await dashboardClientOf(app.gatehouse.services.orm.em.getConnection(), app.gatehouse.services.config.publicUrl, other.organizationId);
    expect(dashboard?.organizationId).toBe(other.organizationId);

    // The link lasts half an hour: each start gives another while no password is set, voiding the one before.
    const renewed = await laterOperatorLinks(app.gatehouse.services.orm, app.gatehouse.services.config.publicUrl, randomUUID());
    expect(renewed).toEqual([{ organizationId: other.organizationId, email: DEFAULT_OPERATOR_EMAIL, passwordLink: expect.stringContaining('/account/reset-password?token=') }]);
    const jar = new CookieJar();
    expect((await jar.visit(first!.passwordLink!)).status).toBe(400);
    const form = await jar.visit(renewed[0]!.passwordLink!);
    expect(form.status).toBe(200);
    expect((await jar.submit(form, { password: NEW_PASSWORD })).status).toBe(200);
    // Once set, no more links; a start's for the oldest organization does not touch it.
    expect(await made(other.organizationId)).toBeNull();
    expect(await laterOperatorLinks(app.gatehouse.services.orm, app.gatehouse.services.config.publicUrl, randomUUID())).toEqual([]);
    expect(await start()).toBeNull();

    const [operator] = await app.sql<{ id: string; application_id: string }>(
      'select u.id, u.application_id from app_user as u join application as c on c.id = u.application_id where c.organization_id = ? and c.console',
      [other.organizationId],
    );
    const bearer = await app.mintAccessToken({ sub: operator!.id, app_id: operator!.application_id });
    const managed = await app.as({ bearer }).get('/managed-applications');
    expect(managed.body.data.map((application: { id: string }) => application.id)).toEqual([other.applicationId]);
  });

  it('leaves the oldest organization’s first operator to the start, which may be configured', async () => {
    const users = async () => (await app.sql<{ n: number }>('select count(*)::int as n from app_user'))[0]!.n;
    const before = await users();
    expect(await made(app.root.organizationId)).toBeNull();
    expect(await users()).toBe(before);
  });
});

describe('a configured first operator', () => {
  const env = (email: string | undefined, password: string | undefined) =>
    loadConfig({
      PORT: '0',
      PUBLIC_URL: 'http://gatehouse.test',
      ...(email === undefined ? {} : { GATEHOUSE_BOOTSTRAP_ADMIN_EMAIL: email }),
      ...(password === undefined ? {} : { GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD: password }),
    });
  const log = { info: () => undefined };

  it('needs both settings, an e-mail address and a password of the console’s policy, or the start fails', async () => {
    expect(() => env('ops@example.com', undefined)).toThrow(ConfigError);
    expect(() => env(undefined, 'Long-Enough-Password-1')).toThrow(ConfigError);
    expect(env(undefined, undefined).bootstrapAdmin).toBeUndefined();
    const users = async () => (await app.sql<{ n: number }>('select count(*)::int as n from app_user'))[0]!.n;
    const before = await users();
    await expect(bootstrapOnFirstStart(app.gatehouse.services.orm, env('not-an-address', 'Long-Enough-Password-1'), log)).rejects.toThrow(
      /GATEHOUSE_BOOTSTRAP_ADMIN_EMAIL must be an e-mail address/,
    );
    await expect(bootstrapOnFirstStart(app.gatehouse.services.orm, env('ops@example.com', 'short'), log)).rejects.toThrow(ConfigError);
    await expect(bootstrapOnFirstStart(app.gatehouse.services.orm, env('ops@example.com', 'password1'), log)).rejects.toThrow(ConfigError);
    expect(await users()).toBe(before);
  });
});
