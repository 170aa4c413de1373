import type { Resolvers } from '../src/generated/graphql.ts';
import {
  createRoleAssignment,
  deleteRoleAssignment,
  getRoleAssignment,
  listRoleAssignments,
} from '../src/domain/authorization/role-assignments.ts';

export const roleAssignmentResolvers: Resolvers = {
  Query: {
    roleAssignments: async (_, { appId, tenantId, subjectType, subjectId, roleId, ...page }, ctx) =>
      listRoleAssignments(await ctx.scope({ applicationId: appId, tenantId }), { subjectType, subjectId, roleId }, page),
    roleAssignment: async (_, { appId, tenantId, assignmentId }, ctx) =>
      getRoleAssignment(await ctx.scope({ applicationId: appId, tenantId }), assignmentId),
  },
  Mutation: {
    createRoleAssignment: async (_, { appId, tenantId, input }, ctx) =>
      createRoleAssignment(await ctx.scope({ applicationId: appId, tenantId }), input),
    deleteRoleAssignment: async (_, { appId, tenantId, assignmentId }, ctx) =>
      deleteRoleAssignment(await ctx.scope({ applicationId: appId, tenantId }), assignmentId),
  },
};
