import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { authenticate } from '../../src/auth/authenticate.ts';
import { createRequestContext } from '../../src/context.ts';
import { verifyDomain } from '../../src/domain/domains/domains.ts';
import type { ResolveTxt } from '../../src/domain/domains/verification.ts';
import type { TestApp } from './app.ts';
import { HttpClient } from './http.ts';

/** A DNS that publishes the given TXT records: the success path, without the internet. */
export const publishing =
  (records: Record<string, string>): ResolveTxt =>
  async (name) => {
    const value = records[name];
    if (value === undefined) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return [[value]];
  };

/** Runs the domain's verify with a given resolver, in the scope the credentials and path would settle. */
export async function verifyWith(
  app: TestApp,
  apiKey: string,
  target: { applicationId: string; tenantId?: string },
  domainId: string,
  resolveTxt: ResolveTxt,
) {
  const { services } = app.gatehouse;
  const principal = await authenticate({ orm: services.orm, cache: services.apiKeys }, services.signingKeys, { apiKey, bearer: undefined });
  const context = createRequestContext(services, randomUUID(), principal);
  return verifyDomain(await context.scope(target), domainId, resolveTxt);
}

/**
 * Adds a custom domain through the API (the application's, or `tenantId`'s) and, unless `verified` is false,
 * verifies it against a DNS that publishes its record. Returns the domain's id.
 */
export async function addDomain(
  app: TestApp,
  owner: { apiKey: string; applicationId: string; tenantId?: string },
  hostname: string,
  { verified = true }: { verified?: boolean } = {},
): Promise<string> {
  const base = `/applications/${owner.applicationId}${owner.tenantId === undefined ? '' : `/tenants/${owner.tenantId}`}/domains`;
  const created = await new HttpClient(app.baseUrl, { apiKey: owner.apiKey }).post(base, { hostname });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (verified) {
    const dns = publishing({ [created.body.verificationRecord.name]: created.body.verificationToken });
    const target = { applicationId: owner.applicationId, ...(owner.tenantId === undefined ? {} : { tenantId: owner.tenantId }) };
    expect((await verifyWith(app, owner.apiKey, target, created.body.id, dns)).verified).toBe(true);
  }
  return created.body.id as string;
}
