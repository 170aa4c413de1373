import type { Resolvers } from '../src/generated/graphql.ts';
import { resetMfa } from '../src/domain/mfa/reset.ts';
import { shownStatus } from '../src/domain/users/sign-in-user.ts';
import { listUpstreamLinks, unlinkUpstream } from '../src/domain/users/upstream-links.ts';
import { activateUser, createUser, deleteUser, getUser, listUsers, suspendUser, unlockUser, updateUser, visibleTenantIds } from '../src/domain/users/users.ts';

export const userResolvers: Resolvers = {
  Query: {
    users: async (_, { appId, tenantId, ...page }, ctx) => listUsers(await ctx.scope({ applicationId: appId, tenantId }), page),
    user: async (_, { appId, tenantId, userId }, ctx) => getUser(await ctx.scope({ applicationId: appId, tenantId }), userId),
    userUpstreamLinks: async (_, { appId, tenantId, userId, ...page }, ctx) =>
      listUpstreamLinks(await ctx.scope({ applicationId: appId, tenantId }), userId, page),
  },
  Mutation: {
    createUser: async (_, { appId, tenantId, input }, ctx) => createUser(await ctx.scope({ applicationId: appId, tenantId }), input),
    updateUser: async (_, { appId, tenantId, userId, input }, ctx) =>
      updateUser(await ctx.scope({ applicationId: appId, tenantId }), userId, input),
    deleteUser: async (_, { appId, tenantId, userId }, ctx) => deleteUser(await ctx.scope({ applicationId: appId, tenantId }), userId),
    unlockUser: async (_, { appId, tenantId, userId }, ctx) => unlockUser(await ctx.scope({ applicationId: appId, tenantId }), userId),
    resetUserMfa: async (_, { appId, tenantId, userId }, ctx) => resetMfa(await ctx.scope({ applicationId: appId, tenantId }), userId),
    suspendUser: async (_, { appId, tenantId, userId }, ctx) => suspendUser(await ctx.scope({ applicationId: appId, tenantId }), userId),
    activateUser: async (_, { appId, tenantId, userId }, ctx) => activateUser(await ctx.scope({ applicationId: appId, tenantId }), userId),
    deleteUserUpstreamLink: async (_, { appId, tenantId, userId, linkId }, ctx) =>
      unlinkUpstream(await ctx.scope({ applicationId: appId, tenantId }), userId, linkId),
  },
  User: {
    name: (user) => user.name ?? null,
    status: (user) => shownStatus(user),
    tenantIds: (user, _, ctx) => visibleTenantIds(ctx.principal, user.tenantIds),
  },
};
