import { GraphQLScalarType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { commonResolvers } from '../../resolvers/common.ts';

const { DateTime } = commonResolvers;

describe('the DateTime scalar', () => {
  it('serializes to exactly the text of toISOString, whatever the date', () => {
    expect(DateTime).toBeInstanceOf(GraphQLScalarType);
    const serialize = (value: unknown) => (DateTime as GraphQLScalarType).serialize(value);
    const dates = [
      new Date('2026-11-23T18:49:32.478Z'),
      new Date('2026-01-02T03:04:05.006Z'),
      new Date('1999-12-31T23:59:59.999Z'),
      new Date('1000-01-01T00:00:00.000Z'),
      new Date('9999-12-31T23:59:59.999Z'),
      // Outside four-digit years toISOString writes ±YYYYYY.
      new Date('0999-12-31T23:59:59.999Z'),
      new Date('+010000-01-01T00:00:00.000Z'),
      new Date(-1e14),
    ];
    // And a spread of instants over the years the service will see.
    for (let ms = Date.UTC(1970, 0, 1); ms < Date.UTC(2100, 0, 1); ms += 3_456_789_123) dates.push(new Date(ms));
    for (const date of dates) expect(serialize(date)).toBe(date.toISOString());
    expect(serialize('2026-11-23T18:49:32.478Z')).toBe('2026-11-23T18:49:32.478Z');
  });
});
