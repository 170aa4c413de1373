import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_DIST } from '../../src/dashboard/routes.ts';
import { ensureConsoles } from '../../src/domain/console/console.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/** The dashboard's page and assets (built once per run by test/support/global-setup.ts), as the service serves them. */
let app: TestApp;
let publicUrl: string;
const sql = <T>(query: string, params: unknown[] = []) => app.gatehouse.services.orm.em.getConnection().execute<T[]>(query, params);
const dashboardClientOf = async (organizationId: string) =>
  (
    await sql<{ id: string }>(
      `select c.id from oauth_client as c join application as a on a.id = c.application_id where a.console and a.organization_id = ?`,
      [organizationId],
    )
  )[0]!.id;

beforeAll(async () => {
  app = await startTestApp();
  publicUrl = app.gatehouse.services.config.publicUrl;
});
afterAll(async () => app?.close());

describe('the dashboard page', () => {
  it('is not offered before any console exists', async () => {
    const response = await fetch(`${app.baseUrl}/dashboard/`);
    expect(response.status).toBe(404);
  });

  it('names the issuer, the oldest organization’s dashboard client and id, and the management API, under a strict CSP', async () => {
    const other = await app.bootstrapAnother();
    await ensureConsoles(app.gatehouse.services.orm, publicUrl, randomUUID());
    expect((await fetch(`${app.baseUrl}/dashboard`, { redirect: 'manual' })).headers.get('location')).toBe('/dashboard/');
    const response = await fetch(`${app.baseUrl}/dashboard/`);
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

    const another = await (await fetch(`${app.baseUrl}/dashboard/?organization=${other.organizationId}`)).text();
    expect(another).toContain(`<meta name="gatehouse-client-id" content="${await dashboardClientOf(other.organizationId)}">`);
    expect(another).toContain(`<meta name="gatehouse-organization" content="${other.organizationId}">`);
    for (const organization of [randomUUID(), 'not-a-uuid']) {
      expect((await fetch(`${app.baseUrl}/dashboard/?organization=${organization}`)).status).toBe(404);
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

  it('answers /favicon.ico, which browsers ask of every page, with no content rather than 404', async () => {
    const icon = await fetch(`${app.baseUrl}/favicon.ico`);
    expect(icon.status).toBe(204);
    expect(icon.headers.get('cache-control')).toContain('max-age=');
  });
});
