import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import type { HttpClient, HttpResponse } from './http.ts';

export type AuthIsolation = 'shared' | 'isolated';

export interface FreshApplication<Tenants extends readonly string[]> {
  applicationId: string;
  /** `/applications/{applicationId}`. */
  appPath: string;
  /** A client with the application's initial `app_admin` key. */
  admin: HttpClient;
  /** The ids of the tenants asked for, in order. */
  tenants: Tenants;
  /** Sets the application's `tenancyConfig.authIsolation`; the answer is the test's to check. */
  switchTo: (authIsolation: AuthIsolation) => Promise<HttpResponse>;
}

/** A tenant id for each name. */
type TenantIds<Names extends readonly string[]> = { -readonly [K in keyof Names]: string };

let created = 0;

/**
 * A new multi-tenant application of the root organization in `authIsolation` mode (shared by default), with a tenant
 * for each of `tenants`; asserts every creation's 201.
 */
export async function freshApplication<const Names extends readonly string[] = []>(
  app: TestApp,
  { authIsolation = 'shared', tenants }: { authIsolation?: AuthIsolation; tenants?: Names } = {},
): Promise<FreshApplication<TenantIds<Names>>> {
  created += 1;
  const application = await app.http.post('/applications', { name: `Fresh ${created}`, multiTenant: true, tenancyConfig: { authIsolation } });
  expect(application.status, JSON.stringify(application.body)).toBe(201);
  const applicationId = application.body.id as string;
  const apiKey = application.body.initialApiKey.secret as string;
  const admin = app.as({ apiKey });
  const appPath = `/applications/${applicationId}`;
  const tenantIds: string[] = [];
  for (const name of tenants ?? []) tenantIds.push(await app.createTenant(name, { organizationId: application.body.organizationId as string, applicationId, apiKey }));
  return {
    applicationId,
    appPath,
    admin,
    tenants: tenantIds as TenantIds<Names>,
    switchTo: (mode) => admin.patch(appPath, { tenancyConfig: { authIsolation: mode } }),
  };
}
