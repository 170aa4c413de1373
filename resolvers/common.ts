import { GraphQLScalarType, Kind } from 'graphql';
import { DateTimeResolver, JSONObjectResolver, UUIDResolver } from 'graphql-scalars';
import type { Resolvers } from '../src/generated/graphql.ts';
import { isUuid } from '../src/ids.ts';
import { SERVICE_VERSION } from '../src/process/version.ts';

const twoDigits = (value: number) => (value < 10 ? `0${value}` : String(value));
const threeDigits = (value: number) => (value < 10 ? `00${value}` : value < 100 ? `0${value}` : String(value));

/** `toISOString()` from UTC fields, about four times as fast (a page of users holds 40 dates); years outside 1000-9999
 *  are left to toISOString (its ±YYYYYY form). */
function isoText(date: Date): string {
  const year = date.getUTCFullYear();
  if (year < 1000 || year > 9999) return date.toISOString();
  const day = `${year}-${twoDigits(date.getUTCMonth() + 1)}-${twoDigits(date.getUTCDate())}`;
  const time = `${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())}:${twoDigits(date.getUTCSeconds())}`;
  return `${day}T${time}.${threeDigits(date.getUTCMilliseconds())}Z`;
}

const EARLIEST_TIME = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST_TIME = Date.parse('9999-12-31T23:59:59.999Z');

/** An offset reaches past the four-digit years RFC 3339 writes (9999-12-31T23:59:59-23:59), where PostgreSQL's
 *  timestamps are not written (a 500) and no expiry or search bound means anything. */
function withinYears(date: Date): Date {
  const time = date.getTime();
  if (time < EARLIEST_TIME || time > LATEST_TIME) throw new TypeError('Not a date-time of the years 0001 to 9999 (UTC)');
  return date;
}

/** graphql-scalars' DateTime, its input within the four-digit years, serialized as its RFC 3339 text: Date objects in a
 *  response leave V8's fast JSON.stringify path, several times slower for a page of users (docs/bench.md). */
export const DateTime = new GraphQLScalarType({
  ...DateTimeResolver.toConfig(),
  serialize: (value) => isoText(DateTimeResolver.serialize(value)),
  parseValue: (value) => withinYears(DateTimeResolver.parseValue(value)),
  parseLiteral: (ast, variables) => withinYears(DateTimeResolver.parseLiteral(ast, variables)),
});

/** Exactly 8-4-4-4-12 hexadecimal digits: graphql-scalars' UUID also takes braces, which then reached PostgreSQL (a 500). */
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in the lower case ids are stored in: UUIDs are case-insensitive, and an upper-case id must find the same row. */
function canonicalUuid(value: unknown): string {
  if (typeof value !== 'string' || !UUID_SHAPE.test(value)) throw new TypeError('Not a UUID (8-4-4-4-12 hexadecimal digits)');
  return value.toLowerCase();
}

/** A UUIDv7, as every id is (API.md): another version or the nil UUID is malformed, not looked up. A plain error, not a
 *  GraphQLError, so graphql-js adds the literal's location (src/graphql/input-refusals.ts names the argument by it). */
function parseId(value: unknown): string {
  if (typeof value !== 'string' || !isUuid(value)) throw new TypeError('Not a UUIDv7 (Gatehouse ids are UUIDv7)');
  return value.toLowerCase();
}

/** graphql-scalars' UUID (its name, description and JSON Schema hint) with the strict, normalizing parse above. */
export const UUID = new GraphQLScalarType({
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
