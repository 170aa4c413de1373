import type { Resolvers } from '../src/generated/graphql.ts';
import { getPolicies, getPolicy, putPolicy, removePolicy } from '../src/domain/policies/policies.ts';

const TYPE_BY_KIND = {
  password: 'PasswordPolicy',
  mfa: 'MfaPolicy',
  session: 'SessionPolicy',
  lockout: 'LockoutPolicy',
} as const;

export const policyResolvers: Resolvers = {
  Query: {
    policies: async (_, { appId, tenantId }, ctx) => getPolicies(await ctx.scope({ applicationId: appId, tenantId })),
    policy: async (_, { kind, appId, tenantId }, ctx) => getPolicy(await ctx.scope({ applicationId: appId, tenantId }), kind),
  },
  Mutation: {
    putPolicy: async (_, { kind, input, appId, tenantId }, ctx) =>
      putPolicy(await ctx.scope({ applicationId: appId, tenantId }), kind, input),
    removePolicy: async (_, { kind, appId, tenantId }, ctx) => removePolicy(await ctx.scope({ applicationId: appId, tenantId }), kind),
  },
  Policy: {
    __resolveType: (policy) => TYPE_BY_KIND[policy.kind],
  },
};
