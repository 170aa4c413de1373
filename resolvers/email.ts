import type { Resolvers } from '../src/generated/graphql.ts';
import { getDelivery, listDeliveries, sendTestEmail, shownContent } from '../src/domain/email/outbox.ts';
import { getEmailProvider, putEmailProvider, removeEmailProviderOverride } from '../src/domain/email/provider.ts';
import { getSenderDomain, verifySenderDomain } from '../src/domain/email/sender-domain.ts';
import {
  getEmailTemplate,
  listEmailTemplates,
  previewEmailTemplate,
  putEmailTemplate,
  removeEmailTemplateOverride,
} from '../src/domain/email/templates.ts';

export const emailResolvers: Resolvers = {
  EmailDelivery: {
    to: (delivery) => delivery.toAddress,
    subject: (delivery, _, ctx) => shownContent(delivery, ctx.services).subject,
    text: (delivery, _, ctx) => shownContent(delivery, ctx.services).text,
    html: (delivery, _, ctx) => shownContent(delivery, ctx.services).html,
  },
  Query: {
    emailDeliveries: async (_, { appId, tenantId, status, templateKey, to, ...page }, ctx) =>
      listDeliveries(await ctx.scope({ applicationId: appId, tenantId }), { status, templateKey, to }, page),
    emailDelivery: async (_, { appId, tenantId, deliveryId }, ctx) => getDelivery(await ctx.scope({ applicationId: appId, tenantId }), deliveryId),
    emailProvider: async (_, { appId, tenantId }, ctx) => getEmailProvider(await ctx.scope({ applicationId: appId, tenantId })),
    emailSenderDomain: async (_, { appId, tenantId }, ctx) => getSenderDomain(await ctx.scope({ applicationId: appId, tenantId })),
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
    sendTestEmail: async (_, { appId, tenantId, input }, ctx) => sendTestEmail(await ctx.scope({ applicationId: appId, tenantId }), input),
    verifyEmailSenderDomain: async (_, { appId, tenantId }, ctx) => verifySenderDomain(await ctx.scope({ applicationId: appId, tenantId })),
  },
};
