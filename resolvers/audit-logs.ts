import type { Resolvers } from '../src/generated/graphql.ts';
import { getAuditRecord, listAuditRecords, type AuditRecordView } from '../src/domain/audit/search.ts';
import { auditRecordIterator, streamStart, subscriptionResumption } from '../src/domain/audit/stream.ts';

export const auditLogResolvers: Resolvers = {
  Query: {
    auditLogs: async (_, { appId, tenantId, ...search }, ctx) => listAuditRecords(await ctx.scope({ applicationId: appId, tenantId }), search),
    auditLog: async (_, { appId, tenantId, recordId }, ctx) => getAuditRecord(await ctx.scope({ applicationId: appId, tenantId }), recordId),
  },
  Subscription: {
    auditLogs: {
      subscribe: async (_, { appId, tenantId, after, resumeAt, ...filter }, ctx) => {
        const { authorizedFromDatabase, reached } = ctx;
        if (authorizedFromDatabase === undefined) throw new Error('a subscription runs only as src/graphql/subscriptions.ts starts it');
        const scope = await ctx.scope({ applicationId: appId, tenantId });
        const start = await streamStart(scope, filter, ...subscriptionResumption(after, resumeAt));
        return auditRecordIterator(scope, filter, start, ctx.services.auditWaker, authorizedFromDatabase, reached);
      },
      resolve: (record: AuditRecordView) => record,
    },
  },
};
