import type { Resolvers } from '../src/generated/graphql.ts';
import { activeUsers, mfaAdoption, signIns } from '../src/domain/analytics.ts';

export const analyticsResolvers: Resolvers = {
  Query: {
    activeUsers: async (_, { appId, tenantId, ...args }, ctx) => activeUsers(await ctx.scope({ applicationId: appId, tenantId }), args),
    signIns: async (_, { appId, tenantId, ...args }, ctx) => signIns(await ctx.scope({ applicationId: appId, tenantId }), args),
    mfaAdoption: async (_, { appId, tenantId }, ctx) => mfaAdoption(await ctx.scope({ applicationId: appId, tenantId })),
  },
};
