/**
 * THE route table of /api/v1: each row maps a method and path onto a named operation of operations.graphql.
 * The REST adapter, the 405 answers, the OpenAPI document and the isolation suite are all derived from it.
 *
 * `owned` rows are application-owned resources (API.md, "Three forms"): one row serves `/R…`,
 * `/applications/{appId}/R…` and `/applications/{appId}/tenants/{tenantId}/R…`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDef {
  readonly method: HttpMethod;
  /** Under /api/v1, with `:param` placeholders named as the operation's variables. */
  readonly path: string;
  readonly operation: string;
  readonly summary: string;
  readonly owned?: boolean;
  /** Success status; default 200, 201 for creations, 204 for DELETE. */
  readonly status?: number;
  /** Honors `Idempotency-Key` (every DELETE does; revoke and rotate say so here). */
  readonly idempotent?: boolean;
}

export const ROUTES: readonly RouteDef[] = [
  // organizations
  { method: 'GET', path: '/organizations/:orgId', operation: 'GetOrganization', summary: 'Get the organization' },
  // applications
  { method: 'GET', path: '/applications', operation: 'ListApplications', summary: 'List applications' },
  { method: 'POST', path: '/applications', operation: 'CreateApplication', summary: 'Create an application', status: 201 },
  { method: 'GET', path: '/applications/:appId', operation: 'GetApplication', summary: 'Get an application' },
  { method: 'PATCH', path: '/applications/:appId', operation: 'UpdateApplication', summary: 'Update an application and its tenancy configuration' },
  { method: 'DELETE', path: '/applications/:appId', operation: 'DeleteApplication', summary: 'Delete an application' },
  // tenants
  { method: 'GET', path: '/applications/:appId/tenants', operation: 'ListTenants', summary: 'List tenants' },
  { method: 'POST', path: '/applications/:appId/tenants', operation: 'CreateTenant', summary: 'Create a tenant', status: 201 },
  { method: 'GET', path: '/applications/:appId/tenants/:tenantId', operation: 'GetTenant', summary: 'Get a tenant' },
  { method: 'PATCH', path: '/applications/:appId/tenants/:tenantId', operation: 'UpdateTenant', summary: 'Update a tenant' },
  { method: 'DELETE', path: '/applications/:appId/tenants/:tenantId', operation: 'DeleteTenant', summary: 'Delete a tenant' },
  {
    method: 'GET',
    path: '/applications/:appId/tenants/:tenantId/configuration',
    operation: 'GetTenantConfiguration',
    summary: 'Get the tenant’s effective configuration of the four tenancy features, each with its source',
  },
  // users
  { method: 'GET', path: '/users', operation: 'ListUsers', summary: 'List users (a tenant scope lists its members)', owned: true },
  { method: 'POST', path: '/users', operation: 'CreateUser', summary: 'Create a user', owned: true, status: 201 },
  { method: 'GET', path: '/users/:userId', operation: 'GetUser', summary: 'Get a user', owned: true },
  { method: 'PATCH', path: '/users/:userId', operation: 'UpdateUser', summary: 'Update a user', owned: true },
  { method: 'DELETE', path: '/users/:userId', operation: 'DeleteUser', summary: 'Delete a user (a shared-pool user in a tenant scope: leave that tenant)', owned: true },
  // api keys
  { method: 'GET', path: '/api-keys', operation: 'ListApiKeys', summary: 'List API keys', owned: true },
  { method: 'POST', path: '/api-keys', operation: 'CreateApiKey', summary: 'Create an API key (the response alone holds its secret)', owned: true, status: 201 },
  { method: 'POST', path: '/api-keys/introspect', operation: 'IntrospectApiKey', summary: 'Introspect an API key secret', owned: true },
  { method: 'GET', path: '/api-keys/:keyId', operation: 'GetApiKey', summary: 'Get an API key', owned: true },
  { method: 'DELETE', path: '/api-keys/:keyId', operation: 'RevokeApiKey', summary: 'Revoke an API key', owned: true },
  { method: 'POST', path: '/api-keys/:keyId/rotate', operation: 'RotateApiKey', summary: 'Rotate an API key’s secret', owned: true, idempotent: true },
  // policies
  { method: 'GET', path: '/policies', operation: 'GetPolicies', summary: 'Get the four policies (a tenant scope: effective, with source)', owned: true },
  { method: 'GET', path: '/policies/:kind', operation: 'GetPolicy', summary: 'Get a policy (a tenant scope: effective, with source)', owned: true },
  { method: 'PUT', path: '/policies/:kind', operation: 'PutPolicy', summary: 'Replace a policy (a tenant scope: its override; needs authIsolation = isolated)', owned: true },
  { method: 'DELETE', path: '/policies/:kind', operation: 'RemovePolicy', summary: 'Remove a tenant’s policy override (tenant scope only)', owned: true },
  // branding
  { method: 'GET', path: '/branding', operation: 'GetBranding', summary: 'Get the branding (a tenant scope: effective, with source)', owned: true },
  { method: 'PUT', path: '/branding', operation: 'PutBranding', summary: 'Replace the branding (a tenant scope: its override; needs brandingScope = tenant)', owned: true },
  { method: 'DELETE', path: '/branding', operation: 'RemoveBrandingOverride', summary: 'Remove a tenant’s branding override (tenant scope only)', owned: true },
  // email
  { method: 'GET', path: '/email/provider', operation: 'GetEmailProvider', summary: 'Get the e-mail provider, secrets excepted (a tenant scope: effective, with source)', owned: true },
  { method: 'PUT', path: '/email/provider', operation: 'PutEmailProvider', summary: 'Replace the e-mail provider (a tenant scope: its override; needs emailProviderScope = tenant)', owned: true },
  { method: 'DELETE', path: '/email/provider', operation: 'RemoveEmailProviderOverride', summary: 'Remove a tenant’s e-mail provider override (tenant scope only)', owned: true },
  { method: 'GET', path: '/email/templates', operation: 'ListEmailTemplates', summary: 'List the 12 e-mail templates (a tenant scope: effective, each with source)', owned: true },
  { method: 'GET', path: '/email/templates/:templateKey', operation: 'GetEmailTemplate', summary: 'Get an e-mail template (a tenant scope: effective, with source)', owned: true },
  { method: 'PUT', path: '/email/templates/:templateKey', operation: 'PutEmailTemplate', summary: 'Replace an e-mail template (a tenant scope: its override; needs emailTemplatesScope = tenant)', owned: true },
  { method: 'DELETE', path: '/email/templates/:templateKey', operation: 'RemoveEmailTemplateOverride', summary: 'Remove a tenant’s override of one e-mail template (tenant scope only)', owned: true },
  { method: 'POST', path: '/email/templates/:templateKey/preview', operation: 'PreviewEmailTemplate', summary: 'Render an e-mail template with sample variables', owned: true },
  // auth providers
  { method: 'GET', path: '/auth-providers', operation: 'ListAuthProviders', summary: 'List the auth providers in force (a tenant scope: its own, else the application’s, with source)', owned: true },
  { method: 'POST', path: '/auth-providers', operation: 'CreateAuthProvider', summary: 'Create an auth provider (a tenant scope: the tenant’s own; needs authIsolation = isolated)', owned: true, status: 201 },
  { method: 'GET', path: '/auth-providers/:providerId', operation: 'GetAuthProvider', summary: 'Get an auth provider in force for the scope', owned: true },
  { method: 'PATCH', path: '/auth-providers/:providerId', operation: 'UpdateAuthProvider', summary: 'Update an auth provider of the scope’s own level', owned: true },
  { method: 'DELETE', path: '/auth-providers/:providerId', operation: 'DeleteAuthProvider', summary: 'Delete an auth provider of the scope’s own level', owned: true },
  // oauth clients
  { method: 'GET', path: '/oauth-clients', operation: 'ListOAuthClients', summary: 'List OAuth clients', owned: true },
  { method: 'POST', path: '/oauth-clients', operation: 'CreateOAuthClient', summary: 'Register an OAuth client (a web client’s secret is in the response only)', owned: true, status: 201 },
  { method: 'GET', path: '/oauth-clients/:clientId', operation: 'GetOAuthClient', summary: 'Get an OAuth client', owned: true },
  { method: 'PATCH', path: '/oauth-clients/:clientId', operation: 'UpdateOAuthClient', summary: 'Update an OAuth client', owned: true },
  { method: 'DELETE', path: '/oauth-clients/:clientId', operation: 'DeleteOAuthClient', summary: 'Delete an OAuth client', owned: true },
  { method: 'POST', path: '/oauth-clients/:clientId/rotate-secret', operation: 'RotateOAuthClientSecret', summary: 'Rotate a web client’s secret (the previous one stays valid for a grace period)', owned: true, idempotent: true },
  // m2m credentials
  { method: 'GET', path: '/m2m-credentials', operation: 'ListM2MCredentials', summary: 'List M2M credentials', owned: true },
  { method: 'POST', path: '/m2m-credentials', operation: 'CreateM2MCredential', summary: 'Create M2M credentials (the response alone holds the client secret)', owned: true, status: 201 },
  { method: 'GET', path: '/m2m-credentials/:credentialId', operation: 'GetM2MCredential', summary: 'Get M2M credentials', owned: true },
  { method: 'DELETE', path: '/m2m-credentials/:credentialId', operation: 'RevokeM2MCredential', summary: 'Revoke M2M credentials', owned: true },
  { method: 'POST', path: '/m2m-credentials/:credentialId/rotate', operation: 'RotateM2MCredential', summary: 'Rotate M2M credentials’ secret (the previous one stays valid for a grace period)', owned: true, idempotent: true },
  { method: 'PUT', path: '/m2m-credentials/:credentialId/jwks', operation: 'PutM2MCredentialJwks', summary: 'Replace the public keys of private_key_jwt M2M credentials', owned: true },
  // domains (API.md: the application's; the tenant form is an addition for isolated tenants)
  { method: 'GET', path: '/applications/:appId/domains', operation: 'ListDomains', summary: 'List the application’s custom domains' },
  { method: 'POST', path: '/applications/:appId/domains', operation: 'CreateDomain', summary: 'Add a custom domain to the application', status: 201 },
  { method: 'DELETE', path: '/applications/:appId/domains/:domainId', operation: 'DeleteDomain', summary: 'Remove a custom domain' },
  { method: 'POST', path: '/applications/:appId/domains/:domainId/verify', operation: 'VerifyDomain', summary: 'Check a custom domain’s DNS TXT record' },
  { method: 'GET', path: '/applications/:appId/tenants/:tenantId/domains', operation: 'ListDomains', summary: 'List a tenant’s custom domains' },
  { method: 'POST', path: '/applications/:appId/tenants/:tenantId/domains', operation: 'CreateDomain', summary: 'Add a custom domain to a tenant (needs authIsolation = isolated)', status: 201 },
  { method: 'DELETE', path: '/applications/:appId/tenants/:tenantId/domains/:domainId', operation: 'DeleteDomain', summary: 'Remove a tenant’s custom domain' },
  { method: 'POST', path: '/applications/:appId/tenants/:tenantId/domains/:domainId/verify', operation: 'VerifyDomain', summary: 'Check a tenant’s custom domain’s DNS TXT record' },
];

export interface ExpandedRoute extends RouteDef {
  /** The full path under /api/v1 of this form. */
  readonly url: string;
  readonly form: 'fixed' | 'credentials' | 'application' | 'tenant';
}

/** Every concrete path of the table: owned rows in their three forms. */
export function expandRoutes(routes: readonly RouteDef[] = ROUTES): ExpandedRoute[] {
  return routes.flatMap((route): ExpandedRoute[] => {
    const idempotent = route.idempotent ?? route.method === 'DELETE';
    if (!route.owned) return [{ ...route, idempotent, url: route.path, form: 'fixed' }];
    return [
      { ...route, idempotent, url: route.path, form: 'credentials' },
      { ...route, idempotent, url: `/applications/:appId${route.path}`, form: 'application' },
      { ...route, idempotent, url: `/applications/:appId/tenants/:tenantId${route.path}`, form: 'tenant' },
    ];
  });
}

export function successStatus(route: RouteDef): number {
  return route.status ?? (route.method === 'DELETE' ? 204 : 200);
}
