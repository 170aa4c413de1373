import type { Resolvers } from '../src/generated/graphql.ts';

export const apiKeyResolvers: Resolvers = {
  ApiKey: {
    permissions: (key) => key.permissions,
  },
};
