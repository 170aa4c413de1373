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
