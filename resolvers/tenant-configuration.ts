import { narrowToTenant } from '../src/context.ts';
import { tenantConfiguration } from '../src/domain/tenancy/configuration.ts';
import type { Resolvers } from '../src/generated/graphql.ts';

export const tenantConfigurationResolvers: Resolvers = {
  Query: {
    tenantConfiguration: async (_, { appId, tenantId }, ctx) =>
      tenantConfiguration(await ctx.scope({ applicationId: appId, tenantId })),
  },
  Tenant: {
    // The application-wide scope of the list, narrowed: every tenant of a page shares its loaders.
    configuration: async (tenant, _, ctx) =>
      tenantConfiguration(narrowToTenant(await ctx.scope({ applicationId: tenant.applicationId }), tenant.id)),
  },
};
