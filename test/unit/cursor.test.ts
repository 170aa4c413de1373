import { describe, expect, it } from 'vitest';
import { GatehouseError } from '../../src/errors.ts';
import { CursorCodec, pageSize } from '../../src/domain/pagination.ts';

const codec = new CursorCodec('secret');

function refusal(run: () => unknown): GatehouseError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatehouseError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The last character of a 16-byte value's base64url text holds 2 bits of it: its lowest bit is not part of the value. */
const sameBytesOtherSpelling = (last: string) => BASE64URL[BASE64URL.indexOf(last) ^ 1]!;

describe('CursorCodec', () => {
  it('round-trips within the list it was issued for', () => {
    const cursor = codec.encode('users:app:', '0190-id');
    expect(codec.decode('users:app:', cursor)).toBe('0190-id');
  });

  it('refuses a cursor of another list, another secret, or edited bytes', () => {
    const cursor = codec.encode('users:app:', '0190-id');
    for (const run of [
      () => codec.decode('users:other-app:', cursor),
      () => new CursorCodec('other').decode('users:app:', cursor),
      () => codec.decode('users:app:', `${Buffer.from('{"a":"0190-other"}').toString('base64url')}.${cursor.split('.')[1]}`),
      () => codec.decode('users:app:', 'garbage'),
      () => codec.decode('users:app:', `${cursor}.extra`),
      // Characters Node's base64url decoder would skip, and a last character differing only in its unused bits.
      ...['!', '==', ' ', '\n'].map((junk) => () => codec.decode('users:app:', `${cursor}${junk}`)),
      () => codec.decode('users:app:', `${cursor.slice(0, -1)}${sameBytesOtherSpelling(cursor.at(-1)!)}`),
    ]) {
      const error = refusal(run);
      expect(error.code).toBe('validation_error');
      expect(error.field).toBe('cursor');
    }
  });

  it('bounds pageSize to 1..100 with a default of 20', () => {
    expect(pageSize({})).toBe(20);
    expect(pageSize({ pageSize: 100 })).toBe(100);
    for (const size of [0, 101, 2.5, -1]) expect(refusal(() => pageSize({ pageSize: size })).field).toBe('pageSize');
  });
});
