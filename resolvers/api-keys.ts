import type { Resolvers } from '../src/generated/graphql.ts';
import {
  createApiKey,
  getApiKey,
  introspectApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
} from '../src/domain/api-keys/api-keys.ts';

export const apiKeyResolvers: Resolvers = {
  Query: {
    apiKeys: async (_, { appId, tenantId, ...page }, ctx) => listApiKeys(await ctx.scope({ applicationId: appId, tenantId }), page),
    apiKey: async (_, { appId, tenantId, keyId }, ctx) => getApiKey(await ctx.scope({ applicationId: appId, tenantId }), keyId),
  },
  Mutation: {
    createApiKey: async (_, { appId, tenantId, input }, ctx) =>
      createApiKey(await ctx.scope({ applicationId: appId, tenantId }), input),
    revokeApiKey: async (_, { appId, tenantId, keyId }, ctx) => revokeApiKey(await ctx.scope({ applicationId: appId, tenantId }), keyId),
    rotateApiKey: async (_, { appId, tenantId, keyId }, ctx) => rotateApiKey(await ctx.scope({ applicationId: appId, tenantId }), keyId),
    introspectApiKey: async (_, { appId, tenantId, input }, ctx) =>
      introspectApiKey(await ctx.scope({ applicationId: appId, tenantId }), input.secret),
  },
  ApiKey: {
    permissions: (key) => key.permissions,
  },
};
