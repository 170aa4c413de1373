import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { authorizationData } from '../support/authorization.ts';
import { startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';

/**
 * The scope `roles`: a sign-in's ID token and userinfo carry the user's roles and permissions in the signed-in tenant;
 * both carry `tenant_id` for every tenant's sign-in. Driven through the hosted page, read with openid-client.
 */
const PASSWORD = 'Correct-Horse-9';

let hosted: HostedTestApp;
let app: TestApp;
let issuer: string;
let config: oidc.Configuration;
let tenantA: string;
let tenantB: string;
let dana: string;
let eli: string;

/** A password sign-in through the hosted page (to `tenant` when given); openid-client redeems the code. */
async function signIn(email: string, scope: string, tenant?: string) {
  const { tokens } = await hosted.signIn({ email, password: PASSWORD }, { scope, ...(tenant === undefined ? {} : { tenant }) });
  const idToken = tokens.claims()!;
  return { idToken, userinfo: await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub) };
}

beforeAll(async () => {
  hosted = await startHostedTestApp();
  ({ app, issuer, config } = hosted);
  tenantA = await app.createTenant('Acme');
  tenantB = await app.createTenant('Globex');
  const data = authorizationData(app);
  for (const key of ['invoices:read', 'invoices:approve', 'reports:read']) await data.permission(key);
  dana = (await app.http.post('/users', { email: 'dana@example.com', password: PASSWORD, tenantId: tenantA })).body.id;
  expect((await app.http.patch(`/users/${dana}`, { tenantIds: [tenantA, tenantB] })).status).toBe(200);
  await data.assign({ type: 'user', id: dana }, await data.role('accountant', ['invoices:*', 'users:read']), tenantA);
  await data.assign({ type: 'user', id: dana }, await data.builtInRole('member'), null);
  eli = (await app.http.post('/users', { email: 'eli@example.com', password: PASSWORD })).body.id;
  await data.assign({ type: 'user', id: eli }, await data.role('auditor', ['reports:read']), null);
});
afterAll(async () => hosted?.close());

describe('the scope roles', () => {
  it('is supported, with its claims', async () => {
    const metadata = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json();
    expect(metadata.scopes_supported).toContain('roles');
    expect(metadata.claims_supported).toEqual(expect.arrayContaining(['tenant_id', 'roles', 'permissions']));
  });

  it('puts the roles and permissions held in the signed-in tenant in the ID token and userinfo (built-in and custom)', async () => {
    const { idToken, userinfo } = await signIn('dana@example.com', 'openid roles', tenantA);
    expect(idToken).toMatchObject({
      sub: dana,
      tenant_id: tenantA,
      roles: ['accountant', 'member'],
      permissions: ['invoices:approve', 'invoices:read', 'users:read'],
    });
    expect(userinfo).toEqual({ sub: dana, tenant_id: tenantA, roles: ['accountant', 'member'], permissions: ['invoices:approve', 'invoices:read', 'users:read'] });
  });

  it('in another tenant, what the user holds there', async () => {
    const { idToken, userinfo } = await signIn('dana@example.com', 'openid roles', tenantB);
    expect(idToken).toMatchObject({ tenant_id: tenantB, roles: ['member'], permissions: [] });
    expect(userinfo).toEqual({ sub: dana, tenant_id: tenantB, roles: ['member'], permissions: [] });
  });

  it('without it, no roles or permissions; the ID token and userinfo still name the tenant', async () => {
    const { idToken, userinfo } = await signIn('dana@example.com', 'openid email', tenantA);
    expect(idToken.tenant_id).toBe(tenantA);
    expect(idToken).not.toHaveProperty('roles');
    expect(idToken).not.toHaveProperty('permissions');
    expect(userinfo).toEqual({ sub: dana, tenant_id: tenantA, email: 'dana@example.com', email_verified: true });
  });

  it('an application-level sign-in names no tenant and carries the application-wide roles', async () => {
    const { idToken, userinfo } = await signIn('eli@example.com', 'openid roles');
    expect(idToken).not.toHaveProperty('tenant_id');
    expect(idToken).toMatchObject({ sub: eli, roles: ['auditor'], permissions: ['reports:read'] });
    // Left out, not null: a null would read as a claim about a tenant.
    expect(userinfo).toEqual({ sub: eli, roles: ['auditor'], permissions: ['reports:read'] });
  });
});
