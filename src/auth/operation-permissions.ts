import type { MutationResolvers, QueryResolvers, SubscriptionResolvers } from '../generated/graphql.ts';
import type { Permission } from './permissions.ts';

export interface OperationRule {
  /** All needed; an empty list: any authenticated caller. */
  readonly permissions: readonly Permission[];
  /** Also needed in one tenant: writing a tenant's overrides is a policy of its own (spec: Authentication, rule 6). */
  readonly tenantScope?: readonly Permission[];
  /** Refused to tenant-scoped credentials, whatever they hold. */
  readonly applicationLevel?: true;
  /** API.md: the reactivation is the one request left. */
  readonly whileDeactivated?: true;
}

/** Every root field, and the nested fields that cost a permission. */
export type OperationCoordinate =
  | `Query.${Extract<keyof QueryResolvers, string>}`
  | `Mutation.${Extract<keyof MutationResolvers, string>}`
  | `Subscription.${Extract<keyof SubscriptionResolvers, string>}`
  | 'Tenant.configuration';

const needs = (permission: Permission): OperationRule => ({ permissions: [permission] });
const applicationLevel = (permission: Permission): OperationRule => ({ permissions: [permission], applicationLevel: true });
const NONE: OperationRule = { permissions: [] };
/** In a tenant scope it writes the tenant's override. */
const override = (permission: Permission): OperationRule => ({ permissions: [permission], tenantScope: ['tenant_overrides:write'] });
/** Reading a tenant's effective settings takes the read permission of each section. */
const CONFIGURATION: OperationRule = {
  permissions: ['tenants:read', 'branding:read', 'email:read', 'policies:read', 'auth_providers:read', 'domains:read'],
};

/**
 * THE permission table: both transports enforce it before variables are read (src/graphql/authorize-operation.ts), and
 * the OpenAPI document, SDL and isolation suite derive from it. tsc refuses a root field left out.
 */
export const OPERATION_PERMISSIONS: Readonly<Record<OperationCoordinate, OperationRule>> = {
  'Query.version': NONE,
  'Mutation.version': NONE,

  'Query.organization': applicationLevel('organizations:read'),
  'Mutation.updateOrganization': applicationLevel('organizations:write'),
  'Mutation.putOrganizationBilling': applicationLevel('organizations:write'),
  // Both served while deactivated: the reactivation, and a retry of the deactivation (which changes nothing then).
  'Mutation.deactivateOrganization': { ...applicationLevel('organizations:delete'), whileDeactivated: true },
  'Mutation.reactivateOrganization': { ...applicationLevel('organizations:delete'), whileDeactivated: true },

  // An operator's own list: what they hold in each application decides (src/domain/console/).
  'Query.managedApplications': NONE,
  'Query.applications': needs('applications:read'),
  'Query.application': needs('applications:read'),
  'Query.applicationStats': applicationLevel('applications:read'),
  'Mutation.createApplication': applicationLevel('applications:write'),
  'Mutation.updateApplication': applicationLevel('applications:write'),
  'Mutation.deleteApplication': applicationLevel('applications:delete'),

  'Query.tenants': needs('tenants:read'),
  'Query.tenant': needs('tenants:read'),
  'Query.tenantConfiguration': CONFIGURATION,
  'Tenant.configuration': CONFIGURATION,
  'Mutation.createTenant': applicationLevel('tenants:write'),
  'Mutation.updateTenant': needs('tenants:write'),
  'Mutation.deleteTenant': applicationLevel('tenants:delete'),

  'Query.users': needs('users:read'),
  'Query.user': needs('users:read'),
  'Mutation.createUser': needs('users:write'),
  'Mutation.updateUser': needs('users:write'),
  'Mutation.unlockUser': needs('users:write'),
  'Mutation.resetUserMfa': needs('users:write'),
  'Mutation.suspendUser': needs('users:write'),
  'Mutation.activateUser': needs('users:write'),
  'Query.userUpstreamLinks': needs('users:read'),
  'Mutation.deleteUserUpstreamLink': needs('users:write'),
  'Mutation.deleteUser': needs('users:delete'),

  // An invitation makes a member: the users' permissions (giving roles also takes role_assignments:write, invitations.ts).
  'Query.invitations': needs('users:read'),
  'Query.invitation': needs('users:read'),
  'Mutation.sendInvitation': needs('users:write'),
  'Mutation.resendInvitation': needs('users:write'),
  'Mutation.revokeInvitation': needs('users:write'),
  'Query.sessions': needs('sessions:read'),
  'Query.session': needs('sessions:read'),
  'Query.userSessions': needs('sessions:read'),
  'Mutation.revokeSession': needs('sessions:delete'),
  'Mutation.revokeUserSessions': needs('sessions:delete'),
  'Mutation.validateSession': needs('sessions:read'),

  'Query.apiKeys': needs('api_keys:read'),
  'Query.apiKey': needs('api_keys:read'),
  'Mutation.introspectApiKey': needs('api_keys:read'),
  'Mutation.createApiKey': needs('api_keys:write'),
  'Mutation.rotateApiKey': needs('api_keys:write'),
  'Mutation.revokeApiKey': needs('api_keys:delete'),

  'Query.permissions': needs('permissions:read'),
  'Mutation.createPermission': needs('permissions:write'),
  'Mutation.deletePermission': needs('permissions:delete'),

  'Query.roles': needs('roles:read'),
  'Query.role': needs('roles:read'),
  'Mutation.createRole': needs('roles:write'),
  'Mutation.updateRole': needs('roles:write'),
  'Mutation.deleteRole': needs('roles:delete'),

  'Query.roleAssignments': needs('role_assignments:read'),
  'Query.roleAssignment': needs('role_assignments:read'),
  'Mutation.createRoleAssignment': needs('role_assignments:write'),
  'Mutation.deleteRoleAssignment': needs('role_assignments:delete'),
  'Mutation.checkPermission': needs('permissions:read'),
  'Mutation.bulkCheckPermissions': needs('permissions:read'),
  'Mutation.checkRole': needs('roles:read'),

  'Query.authProviders': needs('auth_providers:read'),
  'Query.authProvider': needs('auth_providers:read'),
  'Mutation.createAuthProvider': override('auth_providers:write'),
  'Mutation.updateAuthProvider': override('auth_providers:write'),
  'Mutation.rotateSamlSpKey': override('auth_providers:write'),
  'Mutation.deleteAuthProvider': override('auth_providers:delete'),

  'Query.policies': needs('policies:read'),
  'Query.policy': needs('policies:read'),
  'Mutation.putPolicy': override('policies:write'),
  'Mutation.removePolicy': override('policies:delete'),

  'Query.branding': needs('branding:read'),
  'Mutation.putBranding': override('branding:write'),
  'Mutation.removeBrandingOverride': override('branding:delete'),

  'Query.emailProvider': needs('email:read'),
  'Query.emailTemplates': needs('email:read'),
  'Query.emailTemplate': needs('email:read'),
  'Query.emailDeliveries': needs('email:read'),
  'Query.emailDelivery': needs('email:read'),
  'Query.emailSenderDomain': needs('email:read'),
  'Mutation.previewEmailTemplate': needs('email:read'),
  'Mutation.putEmailProvider': override('email:write'),
  'Mutation.putEmailTemplate': override('email:write'),
  'Mutation.sendTestEmail': needs('email:write'),
  'Mutation.verifyEmailSenderDomain': needs('email:write'),
  'Mutation.removeEmailProviderOverride': override('email:delete'),
  'Mutation.removeEmailTemplateOverride': override('email:delete'),

  'Query.domains': needs('domains:read'),
  'Mutation.createDomain': override('domains:write'),
  'Mutation.verifyDomain': override('domains:write'),
  'Mutation.deleteDomain': override('domains:delete'),

  'Query.oauthClients': needs('oauth_clients:read'),
  'Query.oauthClient': needs('oauth_clients:read'),
  'Mutation.createOAuthClient': needs('oauth_clients:write'),
  'Mutation.updateOAuthClient': needs('oauth_clients:write'),
  'Mutation.rotateOAuthClientSecret': needs('oauth_clients:write'),
  'Mutation.deleteOAuthClient': needs('oauth_clients:delete'),

  'Query.m2mCredentials': needs('m2m_credentials:read'),
  'Query.m2mCredential': needs('m2m_credentials:read'),
  'Mutation.createM2MCredential': needs('m2m_credentials:write'),
  'Mutation.rotateM2MCredential': needs('m2m_credentials:write'),
  'Mutation.putM2MCredentialJwks': needs('m2m_credentials:write'),
  'Mutation.revokeM2MCredential': needs('m2m_credentials:delete'),

  'Query.auditLogs': needs('audit_logs:read'),
  'Query.auditLog': needs('audit_logs:read'),
  'Subscription.auditLogs': needs('audit_logs:read'),
  'Query.activeUsers': needs('analytics:read'),
  'Query.signIns': needs('analytics:read'),
  'Query.mfaAdoption': needs('analytics:read'),

  // API resources serve every tenant: a tenant scope may read them; only application-wide credentials change them.
  'Query.apiResources': needs('api_resources:read'),
  'Query.apiResource': needs('api_resources:read'),
  'Mutation.createApiResource': applicationLevel('api_resources:write'),
  'Mutation.updateApiResource': applicationLevel('api_resources:write'),
  'Mutation.deleteApiResource': applicationLevel('api_resources:delete'),
};

/** Most nested fields cost nothing beyond their root's. */
export function ruleOf(coordinate: string): OperationRule | undefined {
  return Object.hasOwn(OPERATION_PERMISSIONS, coordinate) ? OPERATION_PERMISSIONS[coordinate as OperationCoordinate] : undefined;
}
