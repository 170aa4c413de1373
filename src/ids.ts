import { v7, validate, version } from 'uuid';

/** Every id is a UUIDv7: it sorts lexically by creation time, so it doubles as the pagination key. */
export function newId(): string {
  return v7();
}

export function isUuid(value: string): boolean {
  return validate(value) && version(value) === 7;
}
