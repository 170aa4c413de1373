import type { Resolvers } from '../src/generated/graphql.ts';
import {
  createApiResource,
  deleteApiResource,
  getApiResource,
  listApiResources,
  updateApiResource,
} from '../src/domain/api-resources/api-resources.ts';

export const apiResourceResolvers: Resolvers = {
  Query: {
    apiResources: async (_, { appId, tenantId, ...page }, ctx) => listApiResources(await ctx.scope({ applicationId: appId, tenantId }), page),
    apiResource: async (_, { appId, tenantId, resourceId }, ctx) => getApiResource(await ctx.scope({ applicationId: appId, tenantId }), resourceId),
  },
  Mutation: {
    createApiResource: async (_, { appId, tenantId, input }, ctx) => createApiResource(await ctx.scope({ applicationId: appId, tenantId }), input),
    updateApiResource: async (_, { appId, tenantId, resourceId, input }, ctx) =>
      updateApiResource(await ctx.scope({ applicationId: appId, tenantId }), resourceId, input),
    deleteApiResource: async (_, { appId, tenantId, resourceId }, ctx) => deleteApiResource(await ctx.scope({ applicationId: appId, tenantId }), resourceId),
  },
  ApiResource: {
    permissions: (resource) => resource.permissions,
  },
};
