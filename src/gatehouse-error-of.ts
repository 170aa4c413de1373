import { ForeignKeyConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { POOL_EXHAUSTED } from './db/statement-gate.ts';
import { UNIQUE_VIOLATION } from './domain/db-errors.ts';
import { GatehouseError } from './errors.ts';
import { noteRequest } from './observability/log.ts';

const FOREIGN_KEY_VIOLATION = '23503';

/** What every transport (JSON, GraphQL, the hosted pages, the OP) answers for a thrown value; undefined: an internal error. */
export function gatehouseErrorOf(error: unknown): GatehouseError | undefined {
  return error instanceof GatehouseError ? error : refusalOfDatabase(error);
}

/** A foreign key broken at commit is a row deleted meanwhile (every write checks first): 404, as if the deletion had come
 *  first. A unique key taken where no `uniquely` names it is a writer racing on the same values: 409, the constraint and
 *  its values unsaid. No connection free in time: 503, with the pool's counts on the log line. */
function refusalOfDatabase(error: unknown): GatehouseError | undefined {
  // Deferred constraints are checked at commit, whose error reaches us as the driver's, unconverted by MikroORM.
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  if (error instanceof ForeignKeyConstraintViolationException || code === FOREIGN_KEY_VIOLATION) {
    return new GatehouseError('not_found', 'A record this change refers to was deleted meanwhile');
  }
  if (error instanceof UniqueConstraintViolationException || code === UNIQUE_VIOLATION) {
    return new GatehouseError('already_exists', 'A record with these values was written meanwhile');
  }
  if (code === POOL_EXHAUSTED) {
    noteRequest({ overload: (error as Error).message });
    return new GatehouseError('service_unavailable', 'The service is overloaded: try again shortly');
  }
  // Refused in another protocol's words first, keeping the cause (the OP's temporarily_unavailable, met by a page).
  if (error instanceof Error && error.cause !== undefined) return refusalOfDatabase(error.cause);
  return undefined;
}
