import type { Resolvers } from '../src/generated/graphql.ts';
import { createRole, deleteRole, getRole, listRoles, updateRole } from '../src/domain/authorization/roles.ts';

export const roleResolvers: Resolvers = {
  Query: {
    roles: async (_, { appId, tenantId, ...page }, ctx) => listRoles(await ctx.scope({ applicationId: appId, tenantId }), page),
    role: async (_, { appId, tenantId, roleId }, ctx) => getRole(await ctx.scope({ applicationId: appId, tenantId }), roleId),
  },
  Mutation: {
    createRole: async (_, { appId, tenantId, input }, ctx) => createRole(await ctx.scope({ applicationId: appId, tenantId }), input),
    updateRole: async (_, { appId, tenantId, roleId, input }, ctx) => updateRole(await ctx.scope({ applicationId: appId, tenantId }), roleId, input),
    deleteRole: async (_, { appId, tenantId, roleId }, ctx) => deleteRole(await ctx.scope({ applicationId: appId, tenantId }), roleId),
  },
};
