import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { requireCoveredOperator } from '../console/operators.ts';
import { requireCoveredCredential, type CallerHoldings } from '../grants.ts';

/** Setting a password or address, or removing second factors, hands out what the user holds, as a rotation does: only a
 *  caller holding all of it may (for a console user, all they hold as an operator elsewhere too). */
export async function requireCoveredAccount(scope: Scope, em: EntityManager, userId: string, callers: CallerHoldings): Promise<void> {
  await requireOutranking(scope, em, userId, callers);
  await requireCoveredOperator(scope, em, userId);
}

/** Suspending, activating or deleting a user takes away or gives back what they hold: only a caller holding all of it
 *  may. A console's operators are managed there, by what they hold in the console. */
export async function requireOutranking(scope: Scope, em: EntityManager, userId: string, callers: CallerHoldings): Promise<void> {
  await requireCoveredCredential(scope, em, { type: 'user', id: userId, tenantId: null, permissions: [] }, callers);
}
