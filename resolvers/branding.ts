import type { Resolvers } from '../src/generated/graphql.ts';
import { getBranding, putBranding, removeBrandingOverride } from '../src/domain/branding/branding.ts';

export const brandingResolvers: Resolvers = {
  Query: {
    branding: async (_, { appId, tenantId }, ctx) => getBranding(await ctx.scope({ applicationId: appId, tenantId })),
  },
  Mutation: {
    putBranding: async (_, { appId, tenantId, input }, ctx) => putBranding(await ctx.scope({ applicationId: appId, tenantId }), input),
    removeBrandingOverride: async (_, { appId, tenantId }, ctx) =>
      removeBrandingOverride(await ctx.scope({ applicationId: appId, tenantId })),
  },
};
