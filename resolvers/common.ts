import { GraphQLScalarType, Kind } from 'graphql';
import { DateTimeResolver, JSONObjectResolver, UUIDResolver } from 'graphql-scalars';
import type { Resolvers } from '../src/generated/graphql.ts';
import { isUuid } from '../src/ids.ts';
import { SERVICE_VERSION } from '../src/version.ts';

const twoDigits = (value: number) => (value < 10 ? `0${value}` : String(value));
const threeDigits = (value: number) => (value < 10 ? `00${value}` : value < 100 ? `0${value}` : String(value));

/**
 * `date.toISOString()`, built from its UTC fields: the same text about four times as fast (V8's own formatting costs
 * about 1 µs, and a page of users holds 40 dates). Years outside 1000-9999 are left to toISOString (its ±YYYYYY form).
 */
function isoText(date: Date): string {
  const year = date.getUTCFullYear();
  if (year < 1000 || year > 9999) return date.toISOString();
  const day = `${year}-${twoDigits(date.getUTCMonth() + 1)}-${twoDigits(date.getUTCDate())}`;
  const time = `${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())}:${twoDigits(date.getUTCSeconds())}`;
  return `${day}T${time}.${threeDigits(date.getUTCMilliseconds())}Z`;
}

/**
 * graphql-scalars' DateTime, serialized as its RFC 3339 text instead of a Date: the JSON is the same, but a response
 * holding Date objects leaves V8's fast JSON.stringify path, which made serializing a page of users several times
 * slower (docs/bench.md).
 */
const DateTime = new GraphQLScalarType({
  ...DateTimeResolver.toConfig(),
  serialize: (value) => isoText(DateTimeResolver.serialize(value)),
});

/** Exactly 8-4-4-4-12 hexadecimal digits: graphql-scalars' UUID also takes braces, which then reached PostgreSQL (a 500). */
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in the lower case ids are stored in: UUIDs are case-insensitive, and an upper-case id must find the same row. */
function canonicalUuid(value: unknown): string {
  if (typeof value !== 'string' || !UUID_SHAPE.test(value)) throw new TypeError('Not a UUID (8-4-4-4-12 hexadecimal digits)');
  return value.toLowerCase();
}

/**
 * An id a client sends: a UUIDv7, as every id is (API.md), so another version or the nil UUID is refused as malformed
 * rather than looked up. The refusal is a plain error, not a GraphQLError, so that graphql-js wraps it with the refused
 * literal's location, by which src/graphql/input-refusals.ts names the argument; it quotes no value.
 */
function parseId(value: unknown): string {
  if (typeof value !== 'string' || !isUuid(value)) throw new TypeError('Not a UUIDv7 (Gatehouse ids are UUIDv7)');
  return value.toLowerCase();
}

/** graphql-scalars' UUID (its name, description and JSON Schema hint) with the strict, normalizing parse above. */
const UUID = new GraphQLScalarType({
  ...UUIDResolver.toConfig(),
  serialize: canonicalUuid,
  parseValue: parseId,
  parseLiteral: (ast) => parseId(ast.kind === Kind.STRING ? ast.value : undefined),
});

export const commonResolvers: Resolvers = {
  UUID,
  DateTime,
  JSONObject: JSONObjectResolver,
  Query: { version: () => SERVICE_VERSION },
  Mutation: { version: () => SERVICE_VERSION },
};
