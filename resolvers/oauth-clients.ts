import type { Resolvers } from '../src/generated/graphql.ts';
import {
  createOAuthClient,
  deleteOAuthClient,
  getOAuthClient,
  listOAuthClients,
  rotateOAuthClientSecret,
  updateOAuthClient,
} from '../src/domain/oauth-clients/oauth-clients.ts';

export const oauthClientResolvers: Resolvers = {
  Query: {
    oauthClients: async (_, { appId, tenantId, ...page }, ctx) => listOAuthClients(await ctx.scope({ applicationId: appId, tenantId }), page),
    oauthClient: async (_, { appId, tenantId, clientId }, ctx) => getOAuthClient(await ctx.scope({ applicationId: appId, tenantId }), clientId),
  },
  Mutation: {
    createOAuthClient: async (_, { appId, tenantId, input }, ctx) =>
      createOAuthClient(await ctx.scope({ applicationId: appId, tenantId }), input),
    updateOAuthClient: async (_, { appId, tenantId, clientId, input }, ctx) =>
      updateOAuthClient(await ctx.scope({ applicationId: appId, tenantId }), clientId, input),
    deleteOAuthClient: async (_, { appId, tenantId, clientId }, ctx) =>
      deleteOAuthClient(await ctx.scope({ applicationId: appId, tenantId }), clientId),
    rotateOAuthClientSecret: async (_, { appId, tenantId, clientId, input }, ctx) =>
      rotateOAuthClientSecret(await ctx.scope({ applicationId: appId, tenantId }), clientId, input),
  },
};
