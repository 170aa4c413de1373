import type { Resolvers } from '../src/generated/graphql.ts';
import { getOrganization } from '../src/domain/organizations/organizations.ts';

export const organizationResolvers: Resolvers = {
  Query: {
    organization: async (_, { orgId }, ctx) => getOrganization(await ctx.scope(), orgId),
  },
};
