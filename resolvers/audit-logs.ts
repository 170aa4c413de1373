import type { Resolvers } from '../src/generated/graphql.ts';
import { getAuditRecord, listAuditRecords } from '../src/domain/audit-search.ts';

export const auditLogResolvers: Resolvers = {
  Query: {
    auditLogs: async (_, { appId, tenantId, ...search }, ctx) => listAuditRecords(await ctx.scope({ applicationId: appId, tenantId }), search),
    auditLog: async (_, { appId, tenantId, recordId }, ctx) => getAuditRecord(await ctx.scope({ applicationId: appId, tenantId }), recordId),
  },
};
