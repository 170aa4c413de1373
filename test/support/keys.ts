import { expect } from 'vitest';
import { issueApiKey } from '../../src/domain/api-keys/issue.ts';
import type { HttpClient } from './http.ts';
import type { TestApp } from './app.ts';

/**
 * An API key of the root application, issued straight through the domain (as bootstrap does), for tests that need
 * a tenant-scoped or narrowly-permitted credential whatever the /api-keys routes offer.
 */
export async function issueTestKey(
  app: TestApp,
  options: { tenantId?: string | null; permissions?: string[]; applicationId?: string } = {},
): Promise<HttpClient> {
  const em = app.gatehouse.services.orm.em.fork();
  const { secret } = issueApiKey(em, {
    applicationId: options.applicationId ?? app.root.applicationId,
    tenantId: options.tenantId ?? null,
    userId: null,
    name: 'test key',
    permissions: options.permissions ?? ['*'],
    expiresAt: null,
  });
  await em.flush();
  return app.as({ apiKey: secret });
}

/**
 * The secret of a new API key holding `permissions`, application-wide or (with `tenantId`) a tenant's, created through
 * `POST /api-keys` with the root key: for tests of what such a key may do.
 */
export async function createKeySecret(app: TestApp, permissions: string[], tenantId?: string): Promise<string> {
  const created = await app.http.post('/api-keys', { name: 'scoped', permissions, ...(tenantId === undefined ? {} : { tenantId }) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.secret as string;
}

/** A client sending a new key of createKeySecret's. */
export async function clientWithKey(app: TestApp, permissions: string[], tenantId?: string): Promise<HttpClient> {
  return app.as({ apiKey: await createKeySecret(app, permissions, tenantId) });
}
