import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_DIST } from '../../src/dashboard/routes.ts';
import { ensureConsoles } from '../../src/domain/console/console.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { fetchVia, type FetchLike } from '../support/host-fetch.ts';

/** The dashboard's page and assets (built once per run by test/support/global-setup.ts), as the service serves them. */
let app: TestApp;
let publicUrl: string;
/** A request at PUBLIC_URL's host (gatehouse.test), sent to the test service. */
let atPublicUrl: FetchLike;
const dashboardClientOf = async (organizationId: string) =>
  (
    await app.sql<{ id: string }>(
      `select c.id from oauth_client as c join application as a on a.id = c.application_id where a.console and a.organization_id = ?`,
      [organizationId],
    )
  )[0]!.id;

beforeAll(async () => {
  app = await startTestApp();
  publicUrl = app.gatehouse.services.config.publicUrl;
  atPublicUrl = fetchVia(app.baseUrl);
});
afterAll(async () => app?.close());

describe('the dashboard page', () => {
  it('is not offered before any console exists', async () => {
    const response = await atPublicUrl(`${publicUrl}/dashboard/`);
    expect(response.status).toBe(404);
  });

  it('names the issuer, the oldest organization’s dashboard client and id, and the management API, under a strict CSP', async () => {
    const other = await app.bootstrapAnother();
    await ensureConsoles(app.gatehouse.services.orm, publicUrl, randomUUID());
    expect((await atPublicUrl(`${publicUrl}/dashboard`, { redirect: 'manual' })).headers.get('location')).toBe('/dashboard/');
    // The service's root, which a newcomer opens first: its one page for people.
    const root = await atPublicUrl(`${publicUrl}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/dashboard/']);
    // At another host (127.0.0.1 here), on to the page that says where the dashboard is.
    const elsewhere = await fetch(`${app.baseUrl}/`, { redirect: 'manual' });
    expect([elsewhere.status, elsewhere.headers.get('location')]).toEqual([302, '/dashboard/']);
    const response = await atPublicUrl(`${publicUrl}/dashboard/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('content-security-policy')).not.toContain('unsafe');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    expect(html).toContain(`<meta name="gatehouse-issuer" content="${publicUrl}">`);
    expect(html).toContain(`<meta name="gatehouse-client-id" content="${await dashboardClientOf(app.root.organizationId)}">`);
    expect(html).toContain(`<meta name="gatehouse-organization" content="${app.root.organizationId}">`);
    expect(html).toContain(`<meta name="gatehouse-management-audience" content="${publicUrl}/api/v1">`);
    expect(html).not.toMatch(/<script>|<style>/);

    const another = await (await atPublicUrl(`${publicUrl}/dashboard/?organization=${other.organizationId}`)).text();
    expect(another).toContain(`<meta name="gatehouse-client-id" content="${await dashboardClientOf(other.organizationId)}">`);
    expect(another).toContain(`<meta name="gatehouse-organization" content="${other.organizationId}">`);
    for (const organization of [randomUUID(), 'not-a-uuid']) {
      expect((await atPublicUrl(`${publicUrl}/dashboard/?organization=${organization}`)).status).toBe(404);
    }
  });

  it('serves the built assets, and nothing outside them', async () => {
    const [script] = readdirSync(resolve(DASHBOARD_DIST, 'assets')).filter((name) => name.endsWith('.js'));
    const asset = await fetch(`${app.baseUrl}/dashboard/assets/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    for (const path of ['..%2F..%2Fpackage.json', '..%2Findex.html', 'index.html', 'missing.js', '.env']) {
      expect((await fetch(`${app.baseUrl}/dashboard/assets/${path}`)).status, path).toBe(404);
    }
  });

  it('loads the sign-in without the console, whose chunk the page’s script imports once signed in', async () => {
    await ensureConsoles(app.gatehouse.services.orm, publicUrl, randomUUID());
    const html = await (await atPublicUrl(`${publicUrl}/dashboard/`)).text();
    const entry = /<script type="module" crossorigin src="\/dashboard\/assets\/([^"]+)"/.exec(html)?.[1];
    const script = await (await fetch(`${app.baseUrl}/dashboard/assets/${entry}`)).text();
    const chunk = /console-[\w-]+\.js/.exec(script)?.[0];
    const consoleChunk = await fetch(`${app.baseUrl}/dashboard/assets/${chunk}`);
    expect(consoleChunk.status).toBe(200);
    // A label of the console's Tenants page, in its chunk only.
    expect(await consoleChunk.text()).toContain('Remove tenant override');
    expect(script).not.toContain('Remove tenant override');
  });

  it('answers /favicon.ico, which browsers ask of every page, with no content rather than 404', async () => {
    const icon = await fetch(`${app.baseUrl}/favicon.ico`);
    expect(icon.status).toBe(204);
    expect(icon.headers.get('cache-control')).toContain('max-age=');
  });

  it('asked for at another host than PUBLIC_URL’s, is a page linking to the dashboard at PUBLIC_URL, and only there', async () => {
    const host = new URL(app.baseUrl).host;
    const organization = app.root.organizationId;
    const cases = [
      // The first run opened at 127.0.0.1 while PUBLIC_URL names another host: the dashboard could not sign in there.
      [fetch(`${app.baseUrl}/dashboard/`), `${publicUrl}/dashboard/`, `http://${host}`],
      [fetch(`${app.baseUrl}/dashboard/?organization=${organization}`), `${publicUrl}/dashboard/?organization=${organization}`, `http://${host}`],
      // Whatever the host or the query names, the link is PUBLIC_URL's dashboard.
      [atPublicUrl(`http://evil.example/dashboard/?organization=https://evil.example/`), `${publicUrl}/dashboard/`, 'http://evil.example'],
    ] as const;
    for (const [answered, link, requested] of cases) {
      const answer = await answered;
      expect(answer.status, requested).toBe(421);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
      const page = await answer.text();
      expect([...page.matchAll(/href="([^"]*)"/g)].map((match) => match[1])).toEqual([link]);
      expect(page).toContain(`this service&#39;s address (its PUBLIC_URL)`);
      expect(page).toContain(`This page was asked for at ${requested}, where the dashboard cannot sign in. If that is the address you use, set PUBLIC_URL to it`);
      expect(page).not.toContain('gatehouse-client-id');
    }
    // A Host header is the client's to write: it is shown as text, never as markup.
    const hostile = await new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(app.baseUrl);
      request({ hostname, port, path: '/dashboard/', headers: { host: '"><script>alert(1)</script>' } }, (incoming) => {
        let body = '';
        incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
        incoming.on('end', () => resolve(`${incoming.statusCode} ${body}`));
      })
        .on('error', reject)
        .end();
    });
    expect(hostile.startsWith('421 ')).toBe(true);
    expect(hostile).toContain('asked for at http://&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;, where');
    expect(hostile).not.toContain('<script>');
  });
});
