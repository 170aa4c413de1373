import type { Resolvers } from '../src/generated/graphql.ts';
import {
  createAuthProvider,
  deleteAuthProvider,
  getAuthProvider,
  listAuthProviders,
  rotateSamlSpKey,
  updateAuthProvider,
} from '../src/domain/auth-providers/auth-providers.ts';
import { upstreamCallbackUrl } from '../src/domain/sign-in/upstream/callback-url.ts';
import { samlUrls } from '../src/domain/sign-in/saml.ts';

export const authProviderResolvers: Resolvers = {
  AuthProvider: {
    callbackUrl: (provider, _, ctx) =>
      provider.type === 'oauth' ? upstreamCallbackUrl(ctx.services.config.publicUrl, { id: provider.id, tenantId: provider.tenantId ?? null }) : null,
    acsUrl: (provider, _, ctx) => (provider.type === 'saml' ? samlUrls(ctx.services.config.publicUrl, provider).acsUrl : null),
    metadataUrl: (provider, _, ctx) => (provider.type === 'saml' ? samlUrls(ctx.services.config.publicUrl, provider).metadataUrl : null),
  },
  Query: {
    authProviders: async (_, { appId, tenantId, ...page }, ctx) => listAuthProviders(await ctx.scope({ applicationId: appId, tenantId }), page),
    authProvider: async (_, { appId, tenantId, providerId }, ctx) =>
      getAuthProvider(await ctx.scope({ applicationId: appId, tenantId }), providerId),
  },
  Mutation: {
    createAuthProvider: async (_, { appId, tenantId, input }, ctx) =>
      createAuthProvider(await ctx.scope({ applicationId: appId, tenantId }), input),
    updateAuthProvider: async (_, { appId, tenantId, providerId, input }, ctx) =>
      updateAuthProvider(await ctx.scope({ applicationId: appId, tenantId }), providerId, input),
    deleteAuthProvider: async (_, { appId, tenantId, providerId }, ctx) =>
      deleteAuthProvider(await ctx.scope({ applicationId: appId, tenantId }), providerId),
    rotateSamlSpKey: async (_, { appId, tenantId, providerId, input }, ctx) =>
      rotateSamlSpKey(await ctx.scope({ applicationId: appId, tenantId }), providerId, input),
  },
};
