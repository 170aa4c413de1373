import type { Resolvers } from '../src/generated/graphql.ts';
import { bulkCheckPermissions, checkPermission, checkRole } from '../src/domain/authorization/checks.ts';

export const checkResolvers: Resolvers = {
  Mutation: {
    checkPermission: async (_, { appId, tenantId, input }, ctx) => checkPermission(await ctx.scope({ applicationId: appId, tenantId }), input),
    bulkCheckPermissions: async (_, { appId, tenantId, input }, ctx) =>
      bulkCheckPermissions(await ctx.scope({ applicationId: appId, tenantId }), input.checks),
    checkRole: async (_, { appId, tenantId, input }, ctx) => checkRole(await ctx.scope({ applicationId: appId, tenantId }), input),
  },
};
