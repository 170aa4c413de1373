import { createTenant, deleteTenant, getTenant, listTenants, updateTenant } from '../src/domain/tenants/tenants.ts';
import type { Resolvers } from '../src/generated/graphql.ts';

export const tenantResolvers: Resolvers = {
  Query: {
    tenants: async (_, { appId, ...page }, ctx) => listTenants(await ctx.scope({ applicationId: appId }), page),
    tenant: async (_, { appId, tenantId }, ctx) => getTenant(await ctx.scope({ applicationId: appId, tenantId }), tenantId),
  },
  Mutation: {
    createTenant: async (_, { appId, input }, ctx) => createTenant(await ctx.scope({ applicationId: appId }), input),
    updateTenant: async (_, { appId, tenantId, input }, ctx) =>
      updateTenant(await ctx.scope({ applicationId: appId, tenantId }), tenantId, input),
    // Deleting is an application-level act: a tenant's own credentials may not delete it.
    deleteTenant: async (_, { appId, tenantId }, ctx) => deleteTenant(await ctx.scope({ applicationId: appId }), tenantId),
  },
};
