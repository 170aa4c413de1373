import type { Resolvers } from '../src/generated/graphql.ts';
import {
  getInvitation,
  invitationStatus,
  listInvitations,
  resendInvitation,
  revokeInvitation,
  sendInvitation,
} from '../src/domain/invitations/invitations.ts';

export const invitationResolvers: Resolvers = {
  Query: {
    invitations: async (_, { appId, tenantId, ...args }, ctx) => listInvitations(await ctx.scope({ applicationId: appId, tenantId }), args),
    invitation: async (_, { appId, tenantId, invitationId }, ctx) => getInvitation(await ctx.scope({ applicationId: appId, tenantId }), invitationId),
  },
  Mutation: {
    sendInvitation: async (_, { appId, tenantId, input }, ctx) => sendInvitation(await ctx.scope({ applicationId: appId, tenantId }), input),
    resendInvitation: async (_, { appId, tenantId, invitationId }, ctx) => resendInvitation(await ctx.scope({ applicationId: appId, tenantId }), invitationId),
    revokeInvitation: async (_, { appId, tenantId, invitationId }, ctx) => revokeInvitation(await ctx.scope({ applicationId: appId, tenantId }), invitationId),
  },
  Invitation: {
    status: (invitation) => invitationStatus(invitation),
    invitedBy: (invitation) => ({ type: invitation.invitedByType, id: invitation.invitedById }),
  },
};
