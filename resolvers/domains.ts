import type { Resolvers } from '../src/generated/graphql.ts';
import { createDomain, deleteDomain, listDomains, verifyDomain } from '../src/domain/domains/domains.ts';

export const domainResolvers: Resolvers = {
  Query: {
    domains: async (_, { appId, tenantId, ...page }, ctx) => listDomains(await ctx.scope({ applicationId: appId, tenantId }), page),
  },
  Mutation: {
    createDomain: async (_, { appId, tenantId, input }, ctx) => createDomain(await ctx.scope({ applicationId: appId, tenantId }), input),
    deleteDomain: async (_, { appId, tenantId, domainId }, ctx) => deleteDomain(await ctx.scope({ applicationId: appId, tenantId }), domainId),
    verifyDomain: async (_, { appId, tenantId, domainId }, ctx) => verifyDomain(await ctx.scope({ applicationId: appId, tenantId }), domainId),
  },
};
