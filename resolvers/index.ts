import type { Resolvers } from '../src/generated/graphql.ts';
import { apiKeyResolvers } from './api-keys.ts';
import { applicationResolvers } from './applications.ts';
import { brandingResolvers } from './branding.ts';
import { commonResolvers } from './common.ts';
import { emailResolvers } from './email.ts';
import { organizationResolvers } from './organizations.ts';
import { policyResolvers } from './policies.ts';
import { tenantConfigurationResolvers } from './tenant-configuration.ts';
import { tenantResolvers } from './tenants.ts';
import { userResolvers } from './users.ts';
import { authProviderResolvers } from './auth-providers.ts';
import { checkResolvers } from './checks.ts';
import { domainResolvers } from './domains.ts';
import { oauthClientResolvers } from './oauth-clients.ts';
import { m2mCredentialResolvers } from './m2m-credentials.ts';
import { analyticsResolvers } from './analytics.ts';
import { auditLogResolvers } from './audit-logs.ts';
import { permissionResolvers } from './permissions.ts';
import { roleAssignmentResolvers } from './role-assignments.ts';
import { roleResolvers } from './roles.ts';
import { apiResourceResolvers } from './api-resources.ts';
import { invitationResolvers } from './invitations.ts';
import { sessionResolvers } from './sessions.ts';

/** Every area's resolvers; graphql/schema.ts merges them onto the SDL of schema/. */
export const resolvers: Resolvers[] = [
  commonResolvers,
  organizationResolvers,
  applicationResolvers,
  tenantResolvers,
  apiKeyResolvers,
  userResolvers,
  policyResolvers,
  brandingResolvers,
  emailResolvers,
  authProviderResolvers,
  domainResolvers,
  tenantConfigurationResolvers,
  oauthClientResolvers,
  m2mCredentialResolvers,
  auditLogResolvers,
  analyticsResolvers,
  permissionResolvers,
  roleResolvers,
  roleAssignmentResolvers,
  checkResolvers,
  apiResourceResolvers,
  invitationResolvers,
  sessionResolvers,
];
