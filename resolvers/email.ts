import type { Resolvers } from '../src/generated/graphql.ts';
import { getEmailProvider, putEmailProvider, removeEmailProviderOverride } from '../src/domain/email/provider.ts';
import {
  getEmailTemplate,
  listEmailTemplates,
  previewEmailTemplate,
  putEmailTemplate,
  removeEmailTemplateOverride,
} from '../src/domain/email/templates.ts';

export const emailResolvers: Resolvers = {
  Query: {
    emailProvider: async (_, { appId, tenantId }, ctx) => getEmailProvider(await ctx.scope({ applicationId: appId, tenantId })),
    emailTemplates: async (_, { appId, tenantId, ...page }, ctx) =>
      listEmailTemplates(await ctx.scope({ applicationId: appId, tenantId }), page),
    emailTemplate: async (_, { appId, tenantId, templateKey }, ctx) =>
      getEmailTemplate(await ctx.scope({ applicationId: appId, tenantId }), templateKey),
  },
  Mutation: {
    putEmailProvider: async (_, { appId, tenantId, input }, ctx) =>
      putEmailProvider(await ctx.scope({ applicationId: appId, tenantId }), input),
    removeEmailProviderOverride: async (_, { appId, tenantId }, ctx) =>
      removeEmailProviderOverride(await ctx.scope({ applicationId: appId, tenantId })),
    putEmailTemplate: async (_, { appId, tenantId, templateKey, input }, ctx) =>
      putEmailTemplate(await ctx.scope({ applicationId: appId, tenantId }), templateKey, input),
    removeEmailTemplateOverride: async (_, { appId, tenantId, templateKey }, ctx) =>
      removeEmailTemplateOverride(await ctx.scope({ applicationId: appId, tenantId }), templateKey),
    previewEmailTemplate: async (_, { appId, tenantId, templateKey, input }, ctx) =>
      previewEmailTemplate(await ctx.scope({ applicationId: appId, tenantId }), templateKey, input ?? {}),
  },
};
