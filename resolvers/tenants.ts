import type { GraphQLResolveInfo } from 'graphql';
import type { Scope } from '../src/context.ts';
import { requireConfigurationRead } from '../src/domain/tenancy/configuration.ts';
import { createTenant, deleteTenant, getTenant, listTenants, updateTenant } from '../src/domain/tenants/tenants.ts';
import type { Resolvers } from '../src/generated/graphql.ts';
import { selectsField } from '../src/graphql/selection.ts';

/**
 * A tenant write whose answer selects `configuration` needs that read permission before it writes: refused after
 * the write, it would have committed (and been audited) under a 403 that says nothing happened.
 */
function answerable(scope: Scope, info: GraphQLResolveInfo): Scope {
  if (selectsField(info, 'configuration')) requireConfigurationRead(scope);
  return scope;
}

export const tenantResolvers: Resolvers = {
  Query: {
    tenants: async (_, { appId, ...page }, ctx) => listTenants(await ctx.scope({ applicationId: appId }), page),
    tenant: async (_, { appId, tenantId }, ctx) => getTenant(await ctx.scope({ applicationId: appId, tenantId }), tenantId),
  },
  Mutation: {
    createTenant: async (_, { appId, input }, ctx, info) => createTenant(answerable(await ctx.scope({ applicationId: appId }), info), input),
    updateTenant: async (_, { appId, tenantId, input }, ctx, info) =>
      updateTenant(answerable(await ctx.scope({ applicationId: appId, tenantId }), info), tenantId, input),
    // Deleting is an application-level act: a tenant's own credentials may not delete it.
    deleteTenant: async (_, { appId, tenantId }, ctx) => deleteTenant(await ctx.scope({ applicationId: appId }), tenantId),
  },
};
