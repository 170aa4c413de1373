import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Organization, User } from '../../src/db/entities/index.ts';
import { APPLICATION_FILTER, TENANT_FILTER } from '../../src/db/owned.ts';
import { selectPage } from '../../src/db/page-query.ts';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';

/** Page queries are compiled once per shape (src/db/page-query.ts): each request's scope must still decide the rows. */
let app: TestApp;
let tenantA: string;
let tenantB: string;

beforeAll(async () => {
  ({ app, tenants: [tenantA, tenantB] } = await startTestAppWithTenants(['Page A', 'Page B']));
  for (const [email, tenantId] of [['a@example.com', tenantA], ['b@example.com', tenantB]] as const) {
    expect((await app.http.post('/users', { email, tenantId })).status).toBe(201);
  }
});
afterAll(async () => app?.close());

function scopedEm(applicationId: string, tenantId: string | null) {
  const em = app.gatehouse.services.orm.em.fork();
  em.setFilterParams(APPLICATION_FILTER, { id: applicationId });
  em.setFilterParams(TENANT_FILTER, { id: tenantId });
  return em;
}

const emails = async (applicationId: string, tenantId: string | null) =>
  (await selectPage(scopedEm(applicationId, tenantId), User, {}, { after: undefined, limit: 10 })).map((row) => row['email']);

describe('compiled page queries', () => {
  it('reuse one compiled query with each request’s tenant, and another application sees none of the rows', async () => {
    expect(await emails(app.root.applicationId, tenantA)).toEqual(['a@example.com']);
    expect(await emails(app.root.applicationId, tenantB)).toEqual(['b@example.com']);
    expect((await emails(app.root.applicationId, null)).sort()).toEqual(['a@example.com', 'b@example.com']);
    const other = await app.bootstrapAnother();
    expect(await emails(other.applicationId, null)).toEqual([]);
  });

  it('refuses to compile a query that carries no tenancy scope (an entity without the filters)', async () => {
    await expect(selectPage(scopedEm(app.root.applicationId, null), Organization, {}, { after: undefined, limit: 1 })).rejects.toThrow(
      /does not carry its tenancy scope/,
    );
  });
});
