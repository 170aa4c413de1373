import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { GatehouseError } from '../errors.ts';

/** A unique key `write` may take, answered 409 on `field`; one taken elsewhere is 409 without a field (gatehouseErrorOf). */
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

export const UNIQUE_VIOLATION = '23505';

/** The unique index a raw statement's error names (MikroORM converts only its own queries' errors). */
export function violatedUniqueConstraint(error: unknown): string | undefined {
  const { code, constraint } = error instanceof Error ? (error as Error & { code?: unknown; constraint?: unknown }) : {};
  return code === UNIQUE_VIOLATION && typeof constraint === 'string' ? constraint : undefined;
}
