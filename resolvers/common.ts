import { GraphQLScalarType } from 'graphql';
import { DateTimeResolver, JSONObjectResolver, UUIDResolver } from 'graphql-scalars';
import type { Resolvers } from '../src/generated/graphql.ts';
import { SERVICE_VERSION } from '../src/version.ts';

/**
 * graphql-scalars' DateTime, serialized as its RFC 3339 text instead of a Date: the JSON is the same, but a response
 * holding Date objects leaves V8's fast JSON.stringify path, which made serializing a page of users several times
 * slower (docs/bench.md).
 */
const DateTime = new GraphQLScalarType({
  ...DateTimeResolver.toConfig(),
  serialize: (value) => DateTimeResolver.serialize(value).toISOString(),
});

export const commonResolvers: Resolvers = {
  UUID: UUIDResolver,
  DateTime,
  JSONObject: JSONObjectResolver,
  Query: { version: () => SERVICE_VERSION },
  Mutation: { version: () => SERVICE_VERSION },
};
