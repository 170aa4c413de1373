import { DateTimeResolver, JSONObjectResolver, UUIDResolver } from 'graphql-scalars';
import type { Resolvers } from '../src/generated/graphql.ts';
import { SERVICE_VERSION } from '../src/version.ts';

export const commonResolvers: Resolvers = {
  UUID: UUIDResolver,
  DateTime: DateTimeResolver,
  JSONObject: JSONObjectResolver,
  Query: { version: () => SERVICE_VERSION },
  Mutation: { version: () => SERVICE_VERSION },
};
