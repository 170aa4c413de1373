import { randomInt } from 'node:crypto';
import { v7 } from 'uuid';

/** A step back up to this (a slew) keeps ids increasing; a longer one is followed. */
const CLOCK_STEP_BACK_MS = 1_000;
const last = { msecs: -Infinity, seq: 0 };

/**
 * UUIDv7 doubles as the pagination key. uuid's own state keeps ids increasing however far the clock steps back, so a
 * time range read as ids (audit search, firstIdAt) would miss them.
 */
export function newId(): string {
  const now = Date.now();
  if (now > last.msecs || last.msecs - now > CLOCK_STEP_BACK_MS) Object.assign(last, { msecs: now, seq: randomInt(2 ** 31) });
  else if (last.seq < 0xffff_ffff) last.seq++;
  else Object.assign(last, { msecs: last.msecs + 1, seq: 0 });
  return v7({ msecs: last.msecs, seq: last.seq });
}

/**
 * For set-based statements: a v4 UUID with its first 48 bits the Unix time in ms and bits 52-53 set (version 7).
 * PostgreSQL 18 has `uuidv7()`; the CI's PostgreSQL 15 and the embedded one lack it.
 */
export const NEW_ID_SQL =
  `encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing ` +
  `substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid`;

/** Version 7, RFC 9562 variant, either case: every id's test and the OpenAPI document's pattern. */
export const UUIDV7_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-7[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$';
const UUIDV7 = new RegExp(UUIDV7_PATTERN);

export function isUuid(value: string): boolean {
  return UUIDV7.test(value);
}

/** A cast would fail the statement. */
export const uuidOrNullSql = (value: string) =>
  `(case when (${value}) ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then (${value})::uuid end)`;

/** The earliest time a UUIDv7 holds (the Unix epoch): no record is older. */
export const EARLIEST_ID_TIME = new Date(0);

/** Every id made before it sorts below. */
export function firstIdAt(time: Date): string {
  const hex = Math.max(EARLIEST_ID_TIME.getTime(), time.getTime()).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}
