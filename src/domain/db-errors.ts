import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { GatehouseError } from '../errors.ts';

/** Runs a write and turns a unique-key violation into 409 `already_exists` naming the field. */
export async function uniquely<T>(field: string, what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw new GatehouseError('already_exists', `${what} already exists`, { field });
    }
    throw error;
  }
}
