import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { fetchVia } from '../support/host-fetch.ts';
import { codeAuthorizationUrl, createTestClient } from '../support/oauth.ts';

/**
 * A first run opened at 127.0.0.1 while PUBLIC_URL says localhost (here: gatehouse.test): the sign-in's cookies are the
 * issuer's host's, so the browser would loop back to the form. The sign-in steps say so instead (421).
 */
const REDIRECT_URI = 'https://app.example/callback';
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

/** A GET to the test server with `host` as the Host header, verbatim (fetch and URL drop a default port). */
const withHost = (host: string, path: string) =>
  new Promise<number>((resolve, reject) => {
    const service = new URL(app.baseUrl);
    const outgoing = request({ host: service.hostname, port: service.port, path, headers: { host } }, (incoming) => {
      incoming.resume();
      resolve(incoming.statusCode ?? 0);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });

describe('the sign-in asked for at another host than PUBLIC_URL’s', () => {
  it('is a page that names both addresses, on the authorization request and the hosted pages', async () => {
    const { clientId } = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
    const authorize = codeAuthorizationUrl('http://gatehouse.test', clientId, REDIRECT_URI);
    const host = new URL(app.baseUrl).host;
    const pages = ['/interaction/some-uid', '/t/acme/oauth2/authorize', '/oauth2/device', '/oauth2/device?user_code=ABCD-EFGH', '/t/acme/oauth2/device'];
    for (const url of [authorize.replace('http://gatehouse.test', app.baseUrl), ...pages.map((path) => `${app.baseUrl}${path}`)]) {
      const answer = await fetch(url, { redirect: 'manual' });
      expect(answer.status, url).toBe(421);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const page = await answer.text();
      expect(page).toContain(`This service&#39;s address is http://gatehouse.test (its PUBLIC_URL), but this page was asked for at http://${host}.`);
      expect(page).toContain('misdirected_host');
      expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
    // At PUBLIC_URL's host, the same request goes on to the sign-in.
    const atIssuer = await fetchVia(app.baseUrl)(authorize, { redirect: 'manual' });
    expect(atIssuer.status).toBe(303);
    expect(atIssuer.headers.get('location')).toMatch(/^\/interaction\//);
  });

  it('is not the answer to PUBLIC_URL’s host with its scheme’s default port, the same origin; another port is another origin', async () => {
    const { clientId } = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
    const authorize = new URL(codeAuthorizationUrl('http://gatehouse.test', clientId, REDIRECT_URI));
    const path = `${authorize.pathname}${authorize.search}`;
    expect(await withHost('gatehouse.test:80', path)).toBe(303);
    expect(await withHost('GATEHOUSE.test:80', path)).toBe(303);
    expect(await withHost('gatehouse.test:8080', path)).toBe(421);
    expect(await withHost('gatehouse.test:443', path)).toBe(421);
    expect(await withHost('gatehouse.test:80', '/dashboard/')).not.toBe(421);
    expect(await withHost('gatehouse.test:8080', '/dashboard/')).toBe(421);
  });

  it('leaves the API and the OP’s other endpoints alone', async () => {
    expect((await app.http.get('/users')).status).toBe(200);
    expect((await fetch(`${app.baseUrl}/.well-known/openid-configuration`)).status).toBe(200);
    // The device posts its own request; only the page its user fills in is the browser's.
    expect((await fetch(`${app.baseUrl}/oauth2/device_authorization`, { method: 'POST' })).status).not.toBe(421);
  });
});
