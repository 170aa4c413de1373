import { SHARED_POOL } from '../../src/db/entities/user.entity.ts';
import { newId } from '../../src/ids.ts';
import type { TestApp } from '../support/app.ts';
import { passwordProviderId } from '../support/auth-providers.ts';

/**
 * The victim's side of the isolation suite: an application with two tenants and one resource of each kind in
 * tenant `a`, so that every path parameter of the route table has a real value to aim foreign credentials at.
 */
export interface Victim {
  readonly params: Readonly<Record<string, string>>;
  /** A request body per operation that would succeed for the victim's own credentials. */
  readonly bodies: Readonly<Record<string, unknown>>;
}

/** A public signing key (P-256) for private_key_jwt credentials. */
const VICTIM_JWKS = {
  keys: [
    {
      kty: 'EC',
      crv: 'P-256',
      kid: 'victim-key',
      x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
      y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
    },
  ],
};

/**
 * A signed-in session of `userId` by the client (null tenant: an application-level sign-in), written as the OP's storage
 * writes one (its browser session, the grant made in it with its tenant, and the index row the adapter adds): the suite
 * aims at ids, not at the OP.
 */
export async function seedSession(app: TestApp, userId: string, clientId: string, tenantId: string | null): Promise<string> {
  const id = newId();
  const uid = `isolation-${id}`;
  const connection = app.gatehouse.services.orm.em.getConnection();
  await connection.execute(
    `insert into oidc_model (model, id, payload, uid, expires_at) values ('Session', ?, ?::jsonb, ?, now() + interval '1 hour')`,
    [uid, JSON.stringify({ kind: 'Session', jti: uid, uid, accountId: userId, authorizations: { [clientId]: { grantId: uid } } }), uid],
  );
  await connection.execute(
    `insert into oidc_model (model, id, application_id, payload, grant_id, expires_at)
     values ('Grant', ?, ?, ?::jsonb, null, now() + interval '1 hour'), ('GrantTenant', ?, ?, ?::jsonb, ?, now() + interval '1 hour')`,
    [uid, app.root.applicationId, JSON.stringify({ kind: 'Grant', jti: uid, accountId: userId, clientId }), uid, app.root.applicationId, JSON.stringify({ tenantId }), uid],
  );
  await connection.execute(
    `insert into user_session (application_id, id, op_session_uid, user_id, tenant_id, client_id, methods, created_at, last_active_at, expires_at)
     values (?, ?, ?, ?, ?, ?, '{password}', now(), now(), now() + interval '1 hour')`,
    [app.root.applicationId, id, uid, userId, tenantId, clientId],
  );
  return id;
}

export async function seedVictim(app: TestApp): Promise<Victim> {
  const appId = app.root.applicationId;
  const tenant = async (name: string) => (await app.http.post(`/applications/${appId}/tenants`, { name })).body.id as string;
  const tenantA = await tenant('Victim A');
  await tenant('Victim B');
  const inA = `/applications/${appId}/tenants/${tenantA}`;
  const userId = (await app.http.post(`${inA}/users`, { email: 'victim@example.com', name: 'Victim' })).body.id as string;
  const victimKey = (await app.http.post(`${inA}/api-keys`, { name: 'Victim key', permissions: ['users:read'], userId })).body;
  // auth stack: an application provider (its password provider) and domain (tenant ones would need authIsolation = isolated)
  const providerId = await passwordProviderId(app.http, `/applications/${appId}/auth-providers`);
  const domainId = (await app.http.post(`/applications/${appId}/domains`, { hostname: 'victim.example.com' })).body.id as string;
  // the victim user's upstream link, as their first sign-in through an application-wide social provider makes it
  const upstream = { type: 'oauth', name: 'Victim IdP', config: { provider: 'generic', clientId: 'victim', issuer: 'https://idp.victim.example.com' }, secrets: { clientSecret: 's' } };
  const upstreamId = (await app.http.post(`/applications/${appId}/auth-providers`, upstream)).body.id as string;
  const linkId = newId();
  await app.sql(`insert into user_identity (application_id, id, pool_id, provider_id, subject, user_id, created_at) values (?, ?, ?, ?, 'victim-sub', ?, now())`, [appId, linkId, SHARED_POOL, upstreamId, userId]);
  // oauth clients and m2m credentials, in tenant a
  const clientId = (await app.http.post(`${inA}/oauth-clients`, { name: 'Victim web', type: 'web', redirectUris: ['https://victim.example.com/callback'] })).body.clientId as string;
  // a mail of tenant a's outbox
  const deliveryId = (await app.http.post(`${inA}/email/test`, { to: 'victim@example.com' })).body.id as string;
  // a session signed in to tenant a, of a user of its own (the victim user's suspension would end it)
  const signedIn = (await app.http.post(`${inA}/users`, { email: 'victim-signed-in@example.com' })).body.id as string;
  const sessionId = await seedSession(app, signedIn, clientId, tenantA);
  const credentialId = (await app.http.post(`${inA}/m2m-credentials`, { name: 'Victim m2m', permissions: ['users:read'], authMethod: 'private_key_jwt', jwks: VICTIM_JWKS })).body.id as string;
  // The victim user's creation, a record of tenant A.
  const [record] = await app.gatehouse.services.orm.em.getConnection().execute<{ id: string }[]>(`select id from audit_log where target_id = ? and action = 'user.created'`, [userId]);
  const recordId = record!.id;
  // authorization: an application-wide custom permission, a role of tenant a holding it, and the user holding the role
  const permissionId = (await app.http.post(`/applications/${appId}/permissions`, { key: 'victim:approve', description: 'Victim permission' })).body.id as string;
  const roleId = (await app.http.post(`${inA}/roles`, { key: 'victim_role', name: 'Victim role', permissions: ['users:read', 'victim:approve'] })).body.id as string;
  const assignmentId = (await app.http.post(`${inA}/role-assignments`, { subject: { type: 'user', id: userId }, roleId })).body.id as string;
  const roles = (await app.http.get(`/applications/${appId}/roles`)).body.data as { id: string; key: string }[];
  const memberRoleId = roles.find((role) => role.key === 'member')!.id;
  // an API resource: application-level (tenant-scoped credentials read it, change nothing)
  const resourceId = (await app.http.post(`/applications/${appId}/api-resources`, { identifier: 'https://victim.example.com/api', name: 'Victim API' })).body.id as string;
  // an invitation to tenant a
  const invitationId = (await app.http.post(`${inA}/invitations`, { email: 'victim-invitee@example.com' })).body.id as string;
  return {
    params: {
      appId,
      orgId: app.root.organizationId,
      tenantId: tenantA,
      userId,
      keyId: victimKey.key.id as string,
      kind: 'password',
      templateKey: 'welcome',
      providerId,
      domainId,
      clientId,
      credentialId,
      permissionId,
      roleId,
      assignmentId,
      recordId,
      deliveryId,
      resourceId,
      invitationId,
      sessionId,
      linkId,
    },
    bodies: {
      UpdateOrganization: { name: 'Intruded' },
      PutOrganizationBilling: { plan: 'pro', billingEmail: 'billing@intruder.example', address: { line1: '1 Main St', city: 'Springfield', country: 'US' }, taxId: 'US 12-3456789' },
      CreateApplication: { name: 'Intruder app' },
      UpdateApplication: { name: 'Intruded' },
      CreateTenant: { name: 'Intruder tenant' },
      UpdateTenant: { name: 'Intruded' },
      CreateUser: { email: 'intruder@example.com' },
      UpdateUser: { name: 'Intruded' },
      CreateApiKey: { name: 'Intruder key', permissions: ['users:read'] },
      IntrospectApiKey: { secret: victimKey.secret as string },
      PutBranding: { colors: { primary: '#123456' } },
      PutEmailProvider: { type: 'gatehouse' },
      PutEmailTemplate: { subject: 'Intruded', html: '<p>Intruded</p>', text: 'Intruded' },
      PreviewEmailTemplate: {},
      SendTestEmail: { to: 'intruder@example.com' },
      VerifyEmailSenderDomain: {},
      PutPolicy: { minLength: 12 },
      CreateAuthProvider: { type: 'magic_link' },
      UpdateAuthProvider: { enabled: false },
      RotateSamlSpKey: {},
      CreateDomain: { hostname: 'intruder.example.com' },
      CreateOAuthClient: { name: 'Intruder client', type: 'spa', redirectUris: ['https://intruder.example.com/callback'] },
      UpdateOAuthClient: { name: 'Intruded' },
      RotateOAuthClientSecret: { gracePeriodSeconds: 0 },
      CreateM2MCredential: { name: 'Intruder m2m', permissions: ['users:read'] },
      RotateM2MCredential: {},
      PutM2MCredentialJwks: VICTIM_JWKS,
      CreatePermission: { key: 'intruder:act' },
      CreateRole: { key: 'intruder_role', name: 'Intruder role', permissions: ['users:read'] },
      UpdateRole: { name: 'Intruded' },
      // The built-in `member`, application-wide: assignable on every path form (the victim's role only in tenant a).
      CreateRoleAssignment: { subject: { type: 'user', id: userId }, roleId: memberRoleId },
      CheckPermission: { subject: { type: 'user', id: userId }, permission: 'users:read' },
      BulkCheckPermissions: { checks: [{ subject: { type: 'api_key', id: victimKey.key.id as string }, permission: 'users:read' }] },
      CheckRole: { subject: { type: 'user', id: userId }, role: 'member' },
      CreateApiResource: { identifier: 'https://intruder.example.com/api', name: 'Intruder API' },
      UpdateApiResource: { name: 'Intruded' },
      SendInvitation: { email: 'intruder@example.com', tenantId: tenantA },
      ValidateSession: { token: 'not-a-token-of-the-victim' },
    },
  };
}
