import type { Resolvers } from '../src/generated/graphql.ts';
import { createPermission, deletePermission, listPermissions } from '../src/domain/authorization/permissions.ts';

export const permissionResolvers: Resolvers = {
  Query: {
    permissions: async (_, { appId, tenantId, ...page }, ctx) => listPermissions(await ctx.scope({ applicationId: appId, tenantId }), page),
  },
  Mutation: {
    createPermission: async (_, { appId, tenantId, input }, ctx) => createPermission(await ctx.scope({ applicationId: appId, tenantId }), input),
    deletePermission: async (_, { appId, tenantId, permissionId }, ctx) =>
      deletePermission(await ctx.scope({ applicationId: appId, tenantId }), permissionId),
  },
};
