import type { Resolvers } from '../src/generated/graphql.ts';
import { billingOf } from '../src/domain/organizations/billing.ts';
import { getOrganization, putOrganizationBilling, setOrganizationStatus, updateOrganization } from '../src/domain/organizations/organizations.ts';

export const organizationResolvers: Resolvers = {
  Query: {
    organization: async (_, { orgId }, ctx) => getOrganization(await ctx.scope(), orgId),
  },
  Mutation: {
    updateOrganization: async (_, { orgId, input }, ctx) => updateOrganization(await ctx.scope(), orgId, input),
    putOrganizationBilling: async (_, { orgId, input }, ctx) => putOrganizationBilling(await ctx.scope(), orgId, input),
    deactivateOrganization: async (_, { orgId }, ctx) => setOrganizationStatus(await ctx.scope(), orgId, 'deactivated'),
    reactivateOrganization: async (_, { orgId }, ctx) => setOrganizationStatus(await ctx.scope(), orgId, 'active'),
  },
  Organization: {
    billing: (organization) => billingOf(organization.billing),
  },
};
