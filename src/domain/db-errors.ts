import { ForeignKeyConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { POOL_EXHAUSTED } from '../db/statement-gate.ts';
import { GatehouseError } from '../errors.ts';
import { noteRequest } from '../log.ts';

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

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * A foreign key that no longer holds at commit: every write checks what it refers to first, so this is one deleted
 * meanwhile: 404, as if the deletion had come first. No connection came free in time: 503, the pool's counts noted
 * on the request's log line.
 */
export function refusalOfDatabase(error: unknown): GatehouseError | undefined {
  // Deferred constraints are checked at commit, whose error reaches us as the driver's, unconverted by MikroORM.
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  if (error instanceof ForeignKeyConstraintViolationException || code === FOREIGN_KEY_VIOLATION) {
    return new GatehouseError('not_found', 'A record this change refers to was deleted meanwhile');
  }
  if (code === POOL_EXHAUSTED) {
    noteRequest({ overload: (error as Error).message });
    return new GatehouseError('service_unavailable', 'The service is overloaded: try again shortly');
  }
  // Refused in another protocol's words first, keeping the cause (the OP's temporarily_unavailable, met by a page).
  if (error instanceof Error && error.cause !== undefined) return refusalOfDatabase(error.cause);
  return undefined;
}
