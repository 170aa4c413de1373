import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { CookieJar, readForm } from '../support/cookie-jar.ts';
import { REDIRECT_URI, startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';
import { createTestClient, discover, startAuthorization } from '../support/oauth.ts';
import * as oidc from 'openid-client';

/** The hosted pages' refusals once the sign-in is known (in its look), and the tenant choice after a password (303). */
const PASSWORD = 'Correct-Horse-9';

let hosted: HostedTestApp;
let app: TestApp;
let issuer: string;
let acme: string;

beforeAll(async () => {
  hosted = await startHostedTestApp();
  ({ app, issuer } = hosted);
  acme = await app.createTenant('Acme');
  const appId = app.root.applicationId;
  expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig: { brandingScope: 'tenant' } })).status).toBe(200);
  const branding = await app.http.put(`/applications/${appId}/tenants/${acme}/branding`, {
    colors: { primary: '#ff0000', background: '#fff7f7', text: '#330000' },
    copy: { 'error.title': 'Acme could not sign you in' },
  });
  expect(branding.status, JSON.stringify(branding.body)).toBe(200);
});
afterAll(async () => hosted?.close());

describe('refusals of a known sign-in are in its branding', () => {
  it('a forged or stale form (CSRF) is refused in the tenant’s look, not the plain one', async () => {
    const { jar, page } = await hosted.signInPage({ tenant: 'acme' });
    expect(page.body).toContain('--gh-primary:#ff0000');
    const forged = await jar.visit(readForm(page.url, page.body).action, { form: { email: 'x@example.com', password: PASSWORD } });
    expect(forged.status).toBe(403);
    expect(forged.body).not.toContain('<form');
    expect(forged.body).toContain('--gh-primary:#ff0000');
    expect(forged.body).toContain('<h1>Acme could not sign you in</h1>');
    expect(forged.body).toContain('<title>Acme could not sign you in – Acme</title>');
  });

  it('sign-up closed to a named tenant of the shared pool says so in the tenant’s look', async () => {
    const { jar, page } = await hosted.signInPage({ tenant: acme });
    const closed = await jar.visit(`${page.url}/signup`);
    expect(closed.status).toBe(404);
    expect(closed.body).toContain('Creating an account is not available for Acme.');
    expect(closed.body).toContain('--gh-primary:#ff0000');
    expect(closed.body).toContain('<h1>Acme could not sign you in</h1>');
  });
});

describe('tenant refusals of a known client: its application’s look', () => {
  it('an interaction naming no tenant of an application made isolated meanwhile is refused in that application’s look, no tenant’s', async () => {
    const other = await app.bootstrapAnother();
    const admin = app.as({ apiKey: other.apiKey });
    const appPath = `/applications/${other.applicationId}`;
    await app.createTenant('Polar North', other);
    const branded = await admin.put(`${appPath}/branding`, { colors: { primary: '#5b2a86' }, copy: { 'error.title': 'Polaris could not sign you in' } });
    expect(branded.status, JSON.stringify(branded.body)).toBe(200);
    const applicationName = (await admin.get(appPath)).body.name as string;
    const client = await createTestClient(app, { type: 'web', applicationId: other.applicationId, redirectUris: [REDIRECT_URI] });
    const config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
    const flow = await startAuthorization(config, { redirectUri: REDIRECT_URI, resource: '' }, { scope: 'openid' });
    expect(flow.page.status).toBe(200);
    expect((await admin.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);

    const refused = await flow.jar.visit(flow.page.url);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('Each organization of this application has its own sign-in');
    expect(refused.body).toContain('--gh-primary:#5b2a86');
    expect(refused.body).toContain(`<title>Polaris could not sign you in – ${applicationName}</title>`);
    for (const elsewhere of ['Polar North', '#ff0000', 'Acme', '– Gatehouse</title>']) expect(refused.body).not.toContain(elsewhere);
  });
});

describe('a password sign-in that continues to the tenant choice', () => {
  it('answers its POST with a 303 (Post/Redirect/Get): reloading the choice does not post the password again', async () => {
    const globex = await app.createTenant('Globex');
    const created = await app.http.post('/users', { email: 'two-tenants@example.com', password: PASSWORD, tenantId: acme });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await app.http.patch(`/users/${created.body.id}`, { tenantIds: [acme, globex] })).status).toBe(200);

    const { jar, page } = await hosted.signInPage();
    const signedIn = await jar.submit(page, { email: 'two-tenants@example.com', password: PASSWORD });
    expect(signedIn.status, signedIn.body).toBe(303);
    expect(signedIn.location).toBe(`${page.url}/tenant`);
    const chooser = await jar.visit(signedIn.location!);
    expect(chooser.status).toBe(200);
    expect(new Set(readForm(chooser.url, chooser.body).options['tenant'])).toEqual(new Set([acme, globex]));
    // A reload is a GET of the same page.
    expect((await jar.visit(chooser.url)).status).toBe(200);
    // Another browser (no proof of this sign-in) is sent back to the interaction's page.
    expect((await new CookieJar().visit(chooser.url)).status).toBe(303);
    const chosen = await jar.submit(chooser, { tenant: globex });
    expect(chosen.status, chosen.body).toBe(303);
    expect(chosen.location).toMatch(new RegExp(`^${issuer}/oauth2/authorize/`));
  });
});
