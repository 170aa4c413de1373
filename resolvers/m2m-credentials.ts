import type { Resolvers } from '../src/generated/graphql.ts';
import {
  createM2MCredential,
  getM2MCredential,
  listM2MCredentials,
  putM2MCredentialJwks,
  revokeM2MCredential,
  rotateM2MCredential,
} from '../src/domain/m2m-credentials/m2m-credentials.ts';

export const m2mCredentialResolvers: Resolvers = {
  Query: {
    m2mCredentials: async (_, { appId, tenantId, ...page }, ctx) => listM2MCredentials(await ctx.scope({ applicationId: appId, tenantId }), page),
    m2mCredential: async (_, { appId, tenantId, credentialId }, ctx) =>
      getM2MCredential(await ctx.scope({ applicationId: appId, tenantId }), credentialId),
  },
  Mutation: {
    createM2MCredential: async (_, { appId, tenantId, input }, ctx) =>
      createM2MCredential(await ctx.scope({ applicationId: appId, tenantId }), input),
    revokeM2MCredential: async (_, { appId, tenantId, credentialId }, ctx) =>
      revokeM2MCredential(await ctx.scope({ applicationId: appId, tenantId }), credentialId),
    rotateM2MCredential: async (_, { appId, tenantId, credentialId, input }, ctx) =>
      rotateM2MCredential(await ctx.scope({ applicationId: appId, tenantId }), credentialId, input),
    putM2MCredentialJwks: async (_, { appId, tenantId, credentialId, input }, ctx) =>
      putM2MCredentialJwks(await ctx.scope({ applicationId: appId, tenantId }), credentialId, input),
  },
};
