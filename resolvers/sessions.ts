import type { Resolvers } from '../src/generated/graphql.ts';
import { getSession, listSessions, revokeSession, revokeUserSessions, validateSession } from '../src/domain/sessions/sessions.ts';

export const sessionResolvers: Resolvers = {
  Query: {
    sessions: async (_, { appId, tenantId, ...page }, ctx) => listSessions(await ctx.scope({ applicationId: appId, tenantId }), page),
    session: async (_, { appId, tenantId, sessionId }, ctx) => getSession(await ctx.scope({ applicationId: appId, tenantId }), sessionId),
    userSessions: async (_, { appId, tenantId, userId, ...page }, ctx) =>
      listSessions(await ctx.scope({ applicationId: appId, tenantId }), { ...page, userId }),
  },
  Mutation: {
    revokeSession: async (_, { appId, tenantId, sessionId }, ctx) => revokeSession(await ctx.scope({ applicationId: appId, tenantId }), sessionId),
    revokeUserSessions: async (_, { appId, tenantId, userId }, ctx) => revokeUserSessions(await ctx.scope({ applicationId: appId, tenantId }), userId),
    validateSession: async (_, { appId, tenantId, input }, ctx) => validateSession(await ctx.scope({ applicationId: appId, tenantId }), input.token),
  },
};
