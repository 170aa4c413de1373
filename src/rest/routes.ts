import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import * as op from '../generated/operations.ts';
import { READS_ASKED_BY_POST } from '../http/reads-asked-by-post.ts';
import { restOperation, type RestOperation } from './operation.ts';
import type { CachedRead } from './read-cache.ts';

/**
 * THE route table of /api/v1: the REST adapter, the 405 answers, the OpenAPI document and the isolation suite are all
 * derived from it. `owned` rows (API.md, "Three forms") serve `/R…`, `/applications/{appId}/R…` and
 * `/applications/{appId}/tenants/{tenantId}/R…`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Not of its fragments. */
export type OperationDocument = (typeof op)[Extract<keyof typeof op, `${string}Document`>];

export interface RouteDef {
  readonly method: HttpMethod;
  /** `:param` placeholders named as the operation's variables. */
  readonly path: string;
  readonly operation: OperationDocument;
  readonly summary: string;
  readonly owned?: boolean;
  /** Default 200, 201 for creations, 204 for DELETE. */
  readonly status?: number;
  /**
   * GET only (a write answered from a cache would write nothing): the answer shows only this data of the caller's
   * application, and successes are kept in the read cache (read-cache.ts) until that data changes.
   */
  readonly reads?: CachedRead;
}

type PathParams<Path extends string> = Path extends `${string}:${infer Param}/${infer Rest}`
  ? Param | PathParams<Rest>
  : Path extends `${string}:${infer Param}`
    ? Param
    : never;

type RouteParams<Row extends RouteDef> = PathParams<Row['path']> | (Row extends { readonly owned: true } ? 'appId' | 'tenantId' : never);

type Missing<Row extends RouteDef> = Exclude<RouteParams<Row>, keyof (Row['operation'] extends TypedDocumentNode<unknown, infer V> ? V : never)>;

/**
 * A row whose operation lacks a variable its paths fill in has its `path` read the error (a write declaring `reads`,
 * its `reads`).
 */
type Checked<Row extends RouteDef> = string extends Row['path']
  ? Omit<Row, 'path'> & { readonly path: 'a literal path, so that tsc can check its parameters' }
  : Row extends { readonly method: Exclude<HttpMethod, 'GET'>; readonly reads: CachedRead }
    ? Omit<Row, 'reads'> & { readonly reads: 'only a GET may be answered from the read cache' }
    : [Missing<Row>] extends [never]
    ? Row
    : Omit<Row, 'path'> & { readonly path: `${Row['path']}: the operation has no $${Missing<Row>}` };

export function routeTable<const Rows extends readonly RouteDef[]>(rows: { readonly [I in keyof Rows]: Checked<Rows[I]> }): readonly RouteDef[] {
  return rows;
}

export const ROUTES = routeTable([
  { method: 'GET', path: '/organizations/:orgId', operation: op.GetOrganizationDocument, summary: 'Get the organization' },
  { method: 'PATCH', path: '/organizations/:orgId', operation: op.UpdateOrganizationDocument, summary: 'Rename the organization' },
  { method: 'PUT', path: '/organizations/:orgId/billing', operation: op.PutOrganizationBillingDocument, summary: 'Replace the organization’s billing settings' },
  { method: 'POST', path: '/organizations/:orgId/deactivate', operation: op.DeactivateOrganizationDocument, summary: 'Deactivate the organization: its applications’ sign-ins and management requests are refused' },
  { method: 'POST', path: '/organizations/:orgId/reactivate', operation: op.ReactivateOrganizationDocument, summary: 'Reactivate the organization (the one request served while deactivated)' },
  { method: 'GET', path: '/managed-applications', operation: op.ListManagedApplicationsDocument, summary: 'List the applications the signed-in operator manages' },
  { method: 'GET', path: '/applications', operation: op.ListApplicationsDocument, summary: 'List applications' },
  { method: 'POST', path: '/applications', operation: op.CreateApplicationDocument, summary: 'Create an application', status: 201 },
  { method: 'GET', path: '/applications/:appId', operation: op.GetApplicationDocument, summary: 'Get an application' },
  { method: 'GET', path: '/applications/:appId/stats', operation: op.GetApplicationStatsDocument, summary: 'An application’s users, tenants, active users and sign-ins (computed at most a minute ago)' },
  { method: 'PATCH', path: '/applications/:appId', operation: op.UpdateApplicationDocument, summary: 'Update an application and its tenancy configuration' },
  { method: 'DELETE', path: '/applications/:appId', operation: op.DeleteApplicationDocument, summary: 'Delete an application' },
  { method: 'GET', path: '/applications/:appId/tenants', operation: op.ListTenantsDocument, summary: 'List tenants' },
  { method: 'POST', path: '/applications/:appId/tenants', operation: op.CreateTenantDocument, summary: 'Create a tenant', status: 201 },
  { method: 'GET', path: '/applications/:appId/tenants/:tenantId', operation: op.GetTenantDocument, summary: 'Get a tenant' },
  { method: 'PATCH', path: '/applications/:appId/tenants/:tenantId', operation: op.UpdateTenantDocument, summary: 'Update a tenant' },
  { method: 'DELETE', path: '/applications/:appId/tenants/:tenantId', operation: op.DeleteTenantDocument, summary: 'Delete a tenant' },
  {
    method: 'GET',
    path: '/applications/:appId/tenants/:tenantId/configuration',
    operation: op.GetTenantConfigurationDocument,
    summary: 'Get the tenant’s effective configuration of the four tenancy features, each with its source',
  },
  { method: 'GET', path: '/users', operation: op.ListUsersDocument, summary: 'List users (a tenant scope lists its members)', owned: true, reads: 'users' },
  { method: 'POST', path: '/users', operation: op.CreateUserDocument, summary: 'Create a user', owned: true, status: 201 },
  { method: 'GET', path: '/users/:userId', operation: op.GetUserDocument, summary: 'Get a user', owned: true, reads: 'users' },
  { method: 'PATCH', path: '/users/:userId', operation: op.UpdateUserDocument, summary: 'Update a user', owned: true },
  { method: 'DELETE', path: '/users/:userId', operation: op.DeleteUserDocument, summary: 'Delete a user (a shared-pool user in a tenant scope: leave that tenant)', owned: true },
  { method: 'POST', path: '/users/:userId/unlock', operation: op.UnlockUserDocument, summary: 'Unlock a user locked by the lockout policy', owned: true },
  { method: 'POST', path: '/users/:userId/mfa-reset', operation: op.ResetUserMfaDocument, summary: 'Remove every MFA factor and recovery code of a user', owned: true },
  { method: 'POST', path: '/users/:userId/suspend', operation: op.SuspendUserDocument, summary: 'Suspend a user: no sign-in, sessions and tokens revoked', owned: true },
  { method: 'POST', path: '/users/:userId/activate', operation: op.ActivateUserDocument, summary: 'Lift a user’s suspension', owned: true },
  { method: 'GET', path: '/users/:userId/upstream-links', operation: op.ListUserUpstreamLinksDocument, summary: 'List a user’s upstream (social) accounts', owned: true },
  {
    method: 'DELETE',
    path: '/users/:userId/upstream-links/:linkId',
    operation: op.DeleteUserUpstreamLinkDocument,
    summary: 'Unlink an upstream account: it no longer signs in as the user',
    owned: true,
  },
  { method: 'GET', path: '/users/:userId/sessions', operation: op.ListUserSessionsDocument, summary: 'List a user’s live sessions', owned: true },
  {
    method: 'DELETE',
    path: '/users/:userId/sessions',
    operation: op.RevokeUserSessionsDocument,
    summary: 'Sign a user out everywhere: their sessions and every other grant of theirs (offline, device) end with their tokens',
    owned: true,
  },
  { method: 'GET', path: '/sessions', operation: op.ListSessionsDocument, summary: 'List live sessions (a tenant scope: its sign-ins)', owned: true },
  { method: 'POST', path: '/sessions/validate', operation: op.ValidateSessionDocument, summary: 'Whether an access or refresh token’s session still stands', owned: true },
  { method: 'GET', path: '/sessions/:sessionId', operation: op.GetSessionDocument, summary: 'Get a live session', owned: true },
  { method: 'DELETE', path: '/sessions/:sessionId', operation: op.RevokeSessionDocument, summary: 'Revoke a session: its browser session, grants and tokens end', owned: true },
  { method: 'GET', path: '/api-keys', operation: op.ListApiKeysDocument, summary: 'List API keys', owned: true },
  { method: 'POST', path: '/api-keys', operation: op.CreateApiKeyDocument, summary: 'Create an API key (the response alone holds its secret)', owned: true, status: 201 },
  { method: 'POST', path: '/api-keys/introspect', operation: op.IntrospectApiKeyDocument, summary: 'Introspect an API key secret', owned: true },
  { method: 'GET', path: '/api-keys/:keyId', operation: op.GetApiKeyDocument, summary: 'Get an API key', owned: true },
  { method: 'DELETE', path: '/api-keys/:keyId', operation: op.RevokeApiKeyDocument, summary: 'Revoke an API key', owned: true },
  { method: 'POST', path: '/api-keys/:keyId/rotate', operation: op.RotateApiKeyDocument, summary: 'Rotate an API key’s secret', owned: true },
  { method: 'GET', path: '/permissions', operation: op.ListPermissionsDocument, summary: 'List permissions: the built-in ones, then the application’s own (a tenant scope: and its own)', owned: true },
  { method: 'POST', path: '/permissions', operation: op.CreatePermissionDocument, summary: 'Create a custom permission (a tenant scope: the tenant’s own)', owned: true, status: 201 },
  { method: 'DELETE', path: '/permissions/:permissionId', operation: op.DeletePermissionDocument, summary: 'Delete a custom permission; the roles that held it leave it', owned: true },
  { method: 'GET', path: '/roles', operation: op.ListRolesDocument, summary: 'List roles (a tenant scope: the application’s and its own)', owned: true },
  { method: 'POST', path: '/roles', operation: op.CreateRoleDocument, summary: 'Create a role (a tenant scope: the tenant’s own)', owned: true, status: 201 },
  { method: 'GET', path: '/roles/:roleId', operation: op.GetRoleDocument, summary: 'Get a role', owned: true },
  { method: 'PATCH', path: '/roles/:roleId', operation: op.UpdateRoleDocument, summary: 'Update a role (an application-wide one on the application’s path only)', owned: true },
  { method: 'DELETE', path: '/roles/:roleId', operation: op.DeleteRoleDocument, summary: 'Delete a role and its assignments', owned: true },
  { method: 'GET', path: '/role-assignments', operation: op.ListRoleAssignmentsDocument, summary: 'List role assignments, by subject or role', owned: true },
  { method: 'POST', path: '/role-assignments', operation: op.CreateRoleAssignmentDocument, summary: 'Assign a role (a tenant scope: in that tenant; else in every tenant)', owned: true, status: 201 },
  { method: 'GET', path: '/role-assignments/:assignmentId', operation: op.GetRoleAssignmentDocument, summary: 'Get a role assignment', owned: true },
  { method: 'DELETE', path: '/role-assignments/:assignmentId', operation: op.DeleteRoleAssignmentDocument, summary: 'Remove a role assignment', owned: true },
  { method: 'POST', path: '/permissions/check', operation: op.CheckPermissionDocument, summary: 'Whether a subject holds a permission in the scope, and through which roles', owned: true },
  { method: 'POST', path: '/permissions/bulk-check', operation: op.BulkCheckPermissionsDocument, summary: 'Up to 100 permission checks, answered in order', owned: true },
  { method: 'POST', path: '/roles/check', operation: op.CheckRoleDocument, summary: 'Whether a subject holds a role (by key or id) in the scope', owned: true },
  { method: 'GET', path: '/policies', operation: op.GetPoliciesDocument, summary: 'Get the four policies (a tenant scope: effective, with source)', owned: true },
  { method: 'GET', path: '/policies/:kind', operation: op.GetPolicyDocument, summary: 'Get a policy (a tenant scope: effective, with source)', owned: true },
  { method: 'PUT', path: '/policies/:kind', operation: op.PutPolicyDocument, summary: 'Replace a policy (a tenant scope: its override; needs authIsolation = isolated)', owned: true },
  { method: 'DELETE', path: '/policies/:kind', operation: op.RemovePolicyDocument, summary: 'Remove a tenant’s policy override (tenant scope only)', owned: true },
  { method: 'GET', path: '/branding', operation: op.GetBrandingDocument, summary: 'Get the branding (a tenant scope: effective, with source)', owned: true },
  { method: 'PUT', path: '/branding', operation: op.PutBrandingDocument, summary: 'Replace the branding (a tenant scope: its override; needs brandingScope = tenant)', owned: true },
  { method: 'DELETE', path: '/branding', operation: op.RemoveBrandingOverrideDocument, summary: 'Remove a tenant’s branding override (tenant scope only)', owned: true },
  { method: 'GET', path: '/email/provider', operation: op.GetEmailProviderDocument, summary: 'Get the e-mail provider, secrets excepted (a tenant scope: effective, with source)', owned: true },
  { method: 'PUT', path: '/email/provider', operation: op.PutEmailProviderDocument, summary: 'Replace the e-mail provider (a tenant scope: its override; needs emailProviderScope = tenant)', owned: true },
  { method: 'DELETE', path: '/email/provider', operation: op.RemoveEmailProviderOverrideDocument, summary: 'Remove a tenant’s e-mail provider override (tenant scope only)', owned: true },
  { method: 'GET', path: '/email/templates', operation: op.ListEmailTemplatesDocument, summary: 'List the 12 e-mail templates (a tenant scope: effective, each with source)', owned: true },
  { method: 'GET', path: '/email/templates/:templateKey', operation: op.GetEmailTemplateDocument, summary: 'Get an e-mail template (a tenant scope: effective, with source)', owned: true },
  { method: 'PUT', path: '/email/templates/:templateKey', operation: op.PutEmailTemplateDocument, summary: 'Replace an e-mail template (a tenant scope: its override; needs emailTemplatesScope = tenant)', owned: true },
  { method: 'DELETE', path: '/email/templates/:templateKey', operation: op.RemoveEmailTemplateOverrideDocument, summary: 'Remove a tenant’s override of one e-mail template (tenant scope only)', owned: true },
  { method: 'POST', path: '/email/templates/:templateKey/preview', operation: op.PreviewEmailTemplateDocument, summary: 'Render an e-mail template with sample variables', owned: true },
  { method: 'POST', path: '/email/test', operation: op.SendTestEmailDocument, summary: 'Queue a test mail through the scope’s effective provider; answers its delivery', owned: true, status: 201 },
  { method: 'GET', path: '/email/deliveries', operation: op.ListEmailDeliveriesDocument, summary: 'List the outbox’s mails, oldest first or with order=newest newest first (filters: status, templateKey, to)', owned: true },
  { method: 'GET', path: '/email/deliveries/:deliveryId', operation: op.GetEmailDeliveryDocument, summary: 'Get a mail of the outbox with its rendered subject, text and html', owned: true },
  { method: 'GET', path: '/email/sender-domain', operation: op.GetEmailSenderDomainDocument, summary: 'Get the From domain of the scope’s provider and the DNS records to publish for it (SPF, DKIM, return path)', owned: true },
  { method: 'POST', path: '/email/sender-domain/verify', operation: op.VerifyEmailSenderDomainDocument, summary: 'Check the sender domain’s DNS records; answers what was found', owned: true },
  { method: 'GET', path: '/auth-providers', operation: op.ListAuthProvidersDocument, summary: 'List the auth providers in force (a tenant scope: its own, else the application’s, with source)', owned: true },
  { method: 'POST', path: '/auth-providers', operation: op.CreateAuthProviderDocument, summary: 'Create an auth provider (a tenant scope: the tenant’s own; needs authIsolation = isolated)', owned: true, status: 201 },
  { method: 'GET', path: '/auth-providers/:providerId', operation: op.GetAuthProviderDocument, summary: 'Get an auth provider in force for the scope', owned: true },
  { method: 'PATCH', path: '/auth-providers/:providerId', operation: op.UpdateAuthProviderDocument, summary: 'Update an auth provider of the scope’s own level', owned: true },
  { method: 'DELETE', path: '/auth-providers/:providerId', operation: op.DeleteAuthProviderDocument, summary: 'Delete an auth provider of the scope’s own level', owned: true },
  {
    method: 'POST',
    path: '/auth-providers/:providerId/rotate-sp-key',
    operation: op.RotateSamlSpKeyDocument,
    summary: 'Rotate a saml provider’s SP key (the previous one still decrypts and stays in the metadata for a grace period)',
    owned: true,
  },
  { method: 'GET', path: '/oauth-clients', operation: op.ListOAuthClientsDocument, summary: 'List OAuth clients', owned: true },
  { method: 'POST', path: '/oauth-clients', operation: op.CreateOAuthClientDocument, summary: 'Register an OAuth client (a web client’s secret is in the response only)', owned: true, status: 201 },
  { method: 'GET', path: '/oauth-clients/:clientId', operation: op.GetOAuthClientDocument, summary: 'Get an OAuth client', owned: true },
  { method: 'PATCH', path: '/oauth-clients/:clientId', operation: op.UpdateOAuthClientDocument, summary: 'Update an OAuth client', owned: true },
  { method: 'DELETE', path: '/oauth-clients/:clientId', operation: op.DeleteOAuthClientDocument, summary: 'Delete an OAuth client', owned: true },
  { method: 'POST', path: '/oauth-clients/:clientId/rotate-secret', operation: op.RotateOAuthClientSecretDocument, summary: 'Rotate a web client’s secret (the previous one stays valid for a grace period)', owned: true },
  { method: 'GET', path: '/m2m-credentials', operation: op.ListM2MCredentialsDocument, summary: 'List M2M credentials', owned: true },
  { method: 'POST', path: '/m2m-credentials', operation: op.CreateM2MCredentialDocument, summary: 'Create M2M credentials (the response alone holds the client secret)', owned: true, status: 201 },
  { method: 'GET', path: '/m2m-credentials/:credentialId', operation: op.GetM2MCredentialDocument, summary: 'Get M2M credentials', owned: true },
  { method: 'DELETE', path: '/m2m-credentials/:credentialId', operation: op.RevokeM2MCredentialDocument, summary: 'Revoke M2M credentials', owned: true },
  { method: 'POST', path: '/m2m-credentials/:credentialId/rotate', operation: op.RotateM2MCredentialDocument, summary: 'Rotate M2M credentials’ secret (the previous one stays valid for a grace period)', owned: true },
  { method: 'PUT', path: '/m2m-credentials/:credentialId/jwks', operation: op.PutM2MCredentialJwksDocument, summary: 'Replace the public keys of private_key_jwt M2M credentials', owned: true },

  { method: 'GET', path: '/audit-logs', operation: op.ListAuditLogsDocument, summary: 'Search audit records, newest first (a tenant scope sees its own)', owned: true },
  { method: 'GET', path: '/audit-logs/:recordId', operation: op.GetAuditLogDocument, summary: 'Get an audit record', owned: true },
  // GET /audit-logs/stream (Server-Sent Events) is a route of its own: src/rest/audit-stream.ts
  { method: 'GET', path: '/analytics/active-users', operation: op.GetActiveUsersDocument, summary: 'Distinct users signing in or refreshing, per day, week or month', owned: true },
  { method: 'GET', path: '/analytics/sign-ins', operation: op.GetSignInsDocument, summary: 'Sign-ins per period by outcome and method', owned: true },
  { method: 'GET', path: '/analytics/mfa-adoption', operation: op.GetMfaAdoptionDocument, summary: 'Users with at least one MFA factor, by factor', owned: true },
  // api resources: a tenant scope reads them, an application-wide one changes them
  { method: 'GET', path: '/api-resources', operation: op.ListApiResourcesDocument, summary: 'List the application’s API resources', owned: true },
  { method: 'POST', path: '/api-resources', operation: op.CreateApiResourceDocument, summary: 'Register an API resource (application-wide scopes only)', owned: true, status: 201 },
  { method: 'GET', path: '/api-resources/:resourceId', operation: op.GetApiResourceDocument, summary: 'Get an API resource', owned: true },
  { method: 'PATCH', path: '/api-resources/:resourceId', operation: op.UpdateApiResourceDocument, summary: 'Update an API resource (application-wide scopes only)', owned: true },
  { method: 'DELETE', path: '/api-resources/:resourceId', operation: op.DeleteApiResourceDocument, summary: 'Delete an API resource (application-wide scopes only)', owned: true },
  { method: 'GET', path: '/invitations', operation: op.ListInvitationsDocument, summary: 'List invitations (filter: status; a tenant scope lists its own)', owned: true },
  { method: 'POST', path: '/invitations', operation: op.SendInvitationDocument, summary: 'Invite an address to a tenant and mail the link', owned: true, status: 201 },
  { method: 'GET', path: '/invitations/:invitationId', operation: op.GetInvitationDocument, summary: 'Get an invitation', owned: true },
  { method: 'DELETE', path: '/invitations/:invitationId', operation: op.RevokeInvitationDocument, summary: 'Revoke an invitation: its link stops working', owned: true },
  { method: 'POST', path: '/invitations/:invitationId/resend', operation: op.ResendInvitationDocument, summary: 'Mail a new link (the previous one stops working)', owned: true },
  // domains: the tenant form is an addition for isolated tenants (API.md names the application's)
  { method: 'GET', path: '/applications/:appId/domains', operation: op.ListDomainsDocument, summary: 'List the application’s custom domains' },
  { method: 'POST', path: '/applications/:appId/domains', operation: op.CreateDomainDocument, summary: 'Add a custom domain to the application', status: 201 },
  { method: 'DELETE', path: '/applications/:appId/domains/:domainId', operation: op.DeleteDomainDocument, summary: 'Remove a custom domain' },
  { method: 'POST', path: '/applications/:appId/domains/:domainId/verify', operation: op.VerifyDomainDocument, summary: 'Check a custom domain’s DNS TXT record' },
  { method: 'GET', path: '/applications/:appId/tenants/:tenantId/domains', operation: op.ListDomainsDocument, summary: 'List a tenant’s custom domains' },
  { method: 'POST', path: '/applications/:appId/tenants/:tenantId/domains', operation: op.CreateDomainDocument, summary: 'Add a custom domain to a tenant (needs authIsolation = isolated)', status: 201 },
  { method: 'DELETE', path: '/applications/:appId/tenants/:tenantId/domains/:domainId', operation: op.DeleteDomainDocument, summary: 'Remove a tenant’s custom domain' },
  { method: 'POST', path: '/applications/:appId/tenants/:tenantId/domains/:domainId/verify', operation: op.VerifyDomainDocument, summary: 'Check a tenant’s custom domain’s DNS TXT record' },
]);

export interface ExpandedRoute extends Omit<RouteDef, 'operation'> {
  readonly operation: RestOperation;
  /**
   * Every write (API.md names DELETE, revoke and rotate; a create retried after a lost answer needs it as much), as
   * /graphql on every mutation, so an operation answers a key alike on both; not the reads asked with POST.
   */
  readonly idempotent: boolean;
  readonly url: string;
  readonly form: 'fixed' | 'credentials' | 'application' | 'tenant';
}

/** Owned rows in their three forms. */
export function expandRoutes(routes: readonly RouteDef[] = ROUTES): ExpandedRoute[] {
  return routes.flatMap((row): ExpandedRoute[] => {
    const operation = restOperation(row.operation);
    const route = { ...row, operation, idempotent: row.method !== 'GET' && !READS_ASKED_BY_POST.has(operation.rootField) };
    if (!route.owned) return [{ ...route, url: route.path, form: 'fixed' }];
    return [
      { ...route, url: route.path, form: 'credentials' },
      { ...route, url: `/applications/:appId${route.path}`, form: 'application' },
      { ...route, url: `/applications/:appId/tenants/:tenantId${route.path}`, form: 'tenant' },
    ];
  });
}

export function successStatus(route: Pick<RouteDef, 'method' | 'status'>): number {
  return route.status ?? (route.method === 'DELETE' ? 204 : 200);
}
