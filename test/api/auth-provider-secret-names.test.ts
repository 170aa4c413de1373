import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';

let app: TestApp;
let appPath: string;
let acme: string;

beforeAll(async () => {
  ({ app, appPath, tenants: [acme] } = await startTestAppWithTenants(['Acme']));
  expect((await app.http.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
});
afterAll(async () => app?.close());

/**
 * API.md, Conventions: unknown JSON fields are 422. An auth provider's `secrets` named by Object.prototype's members
 * (`constructor`, `toString`…) were taken for known secrets: the provider was created (201) with a stored "secret"
 * of that name, and `__proto__` was dropped without a word.
 */
describe('auth provider secrets named like Object.prototype members', () => {
  const names = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'];
  for (const name of names) {
    it(`secrets.${name} on a tenant's new provider: 422, nothing created`, async () => {
      const inAcme = `${appPath}/tenants/${acme}/auth-providers`;
      const refused = await app.http.post(inAcme, { type: 'm2m', secrets: { [name]: 'x' } });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field: `secrets.${name}` });
      expect((await app.http.get(inAcme)).body.data.filter((provider: { type: string }) => provider.type === 'm2m')).toEqual([]);
    });
  }

  it('secrets.constructor on a PATCH: 422, the provider unchanged; GraphQL refuses it alike', async () => {
    const created = await app.http.post(`${appPath}/tenants/${acme}/auth-providers`, { type: 'api_keys' });
    expect(created.status).toBe(201);
    const path = `${appPath}/tenants/${acme}/auth-providers/${created.body.id}`;
    const refused = await app.http.patch(path, { secrets: { constructor: 'x' } });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'secrets.constructor' });
    expect((await app.http.get(path)).body.secretsSet).toEqual([]);
    const viaGraphql = await app.http.graphql(
      `mutation($appId: UUID!, $tenantId: UUID!, $id: UUID!) {
        updateAuthProvider(appId: $appId, tenantId: $tenantId, providerId: $id, input: { secrets: { toString: "x" } }) { secretsSet }
      }`,
      { appId: app.root.applicationId, tenantId: acme, id: created.body.id },
    );
    expect(viaGraphql.status).toBe(422);
    expect(viaGraphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'secrets.toString' });
    expect((await app.http.get(path)).body.secretsSet).toEqual([]);
  });
});
