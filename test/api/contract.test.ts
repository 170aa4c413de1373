import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandRoutes, ROUTES } from '../../src/rest/routes.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/**
 * The routes of API.md this foundation covers, written out by hand from the contract: the route table must serve
 * every one of them (it may serve more). Parameter names are part of the contract: a malformed id answers 422 with
 * `field` = the parameter's name.
 */
const APP = '/applications/:appId';
const TENANT = '/applications/:appId/tenants/:tenantId';

/** An application-owned route in its three forms (API.md, "Three forms of every application-owned path"). */
const owned = (method: string, path: string) => [`${method} ${path}`, `${method} ${APP}${path}`, `${method} ${TENANT}${path}`];
/** The tenant form only: removing a tenant's override. */
const tenantForm = (method: string, path: string) => [`${method} ${TENANT}${path}`];

const EXPECTED: Readonly<Record<string, string[]>> = {
  organizations: ['GET /organizations/:orgId'],
  applications: [
    'GET /applications',
    'POST /applications',
    `GET ${APP}`,
    `PATCH ${APP}`,
    `DELETE ${APP}`,
    `GET ${APP}/domains`,
    `POST ${APP}/domains`,
    `DELETE ${APP}/domains/:domainId`,
    `POST ${APP}/domains/:domainId/verify`,
  ],
  tenants: [
    `GET ${APP}/tenants`,
    `POST ${APP}/tenants`,
    `GET ${TENANT}`,
    `PATCH ${TENANT}`,
    `DELETE ${TENANT}`,
    `GET ${TENANT}/configuration`,
  ],
  users: [...owned('GET', '/users'), ...owned('POST', '/users'), ...owned('GET', '/users/:userId'), ...owned('PATCH', '/users/:userId'), ...owned('DELETE', '/users/:userId'), ...owned('POST', '/users/:userId/mfa-reset')],
  'auth providers': [
    ...owned('GET', '/auth-providers'),
    ...owned('POST', '/auth-providers'),
    ...owned('GET', '/auth-providers/:providerId'),
    ...owned('PATCH', '/auth-providers/:providerId'),
    ...owned('DELETE', '/auth-providers/:providerId'),
  ],
  policies: [...owned('GET', '/policies'), ...owned('GET', '/policies/:kind'), ...owned('PUT', '/policies/:kind')],
  'api keys': [
    ...owned('GET', '/api-keys'),
    ...owned('POST', '/api-keys'),
    ...owned('GET', '/api-keys/:keyId'),
    ...owned('DELETE', '/api-keys/:keyId'),
    ...owned('POST', '/api-keys/:keyId/rotate'),
    ...owned('POST', '/api-keys/introspect'),
  ],
  'oauth clients': [
    ...owned('GET', '/oauth-clients'),
    ...owned('POST', '/oauth-clients'),
    ...owned('GET', '/oauth-clients/:clientId'),
    ...owned('PATCH', '/oauth-clients/:clientId'),
    ...owned('DELETE', '/oauth-clients/:clientId'),
    ...owned('POST', '/oauth-clients/:clientId/rotate-secret'),
  ],
  'm2m credentials': [
    ...owned('GET', '/m2m-credentials'),
    ...owned('POST', '/m2m-credentials'),
    ...owned('GET', '/m2m-credentials/:credentialId'),
    ...owned('DELETE', '/m2m-credentials/:credentialId'),
    ...owned('POST', '/m2m-credentials/:credentialId/rotate'),
    ...owned('PUT', '/m2m-credentials/:credentialId/jwks'),
  ],
  permissions: [...owned('GET', '/permissions'), ...owned('POST', '/permissions'), ...owned('DELETE', '/permissions/:permissionId')],
  roles: [
    ...owned('GET', '/roles'),
    ...owned('POST', '/roles'),
    ...owned('GET', '/roles/:roleId'),
    ...owned('PATCH', '/roles/:roleId'),
    ...owned('DELETE', '/roles/:roleId'),
  ],
  'role assignments': [
    ...owned('GET', '/role-assignments'),
    ...owned('POST', '/role-assignments'),
    ...owned('DELETE', '/role-assignments/:assignmentId'),
  ],
  branding: [...owned('GET', '/branding'), ...owned('PUT', '/branding'), ...tenantForm('DELETE', '/branding')],
  email: [
    ...owned('GET', '/email/provider'),
    ...owned('PUT', '/email/provider'),
    ...tenantForm('DELETE', '/email/provider'),
    ...owned('GET', '/email/templates'),
    ...owned('GET', '/email/templates/:templateKey'),
    ...owned('PUT', '/email/templates/:templateKey'),
    ...tenantForm('DELETE', '/email/templates/:templateKey'),
    ...owned('POST', '/email/templates/:templateKey/preview'),
  ],
};

/** Values that pass each parameter's shape, so a route answers 401 for lack of credentials rather than 422. */
const SAMPLE_PARAMS: Readonly<Record<string, string>> = { kind: 'password', templateKey: 'welcome' };
const SAMPLE_ID = '01890a5d-ac96-774b-bcce-b302099a8057';

const table = new Set(expandRoutes(ROUTES).map((route) => `${route.method} ${route.url}`));

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe('the route table covers the contract of API.md', () => {
  for (const [area, routes] of Object.entries(EXPECTED)) {
    it(area, () => {
      const missing = routes.filter((route) => !table.has(route));
      expect(missing, `routes of ${area} missing from the route table`).toEqual([]);
    });
  }

  it('serves every contract route: without credentials each answers 401, not 404 or 405', async () => {
    const anonymous = app.as({});
    const wrong: string[] = [];
    for (const route of Object.values(EXPECTED).flat()) {
      const [method, path] = route.split(' ') as [string, string];
      const url = path.replace(/:(\w+)/g, (_match, name: string) => SAMPLE_PARAMS[name] ?? SAMPLE_ID);
      const response = await anonymous.request(method, `/api/v1${url}`, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
      if (response.status !== 401 || response.body.code !== 'unauthenticated') wrong.push(`${route} → ${response.status}`);
    }
    expect(wrong).toEqual([]);
  });
});
