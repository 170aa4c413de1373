import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { requireCoveredOperator } from '../console/operators.ts';
import { requireCoveredCredential, type CallerTenants } from '../grants.ts';

/**
 * Setting a user's password or address, or removing their second factors, hands out what they hold: as a credential's
 * rotation does (requireCoveredCredential), and, a console user, what they hold as an operator elsewhere.
 */
export async function requireCoveredAccount(scope: Scope, em: EntityManager, userId: string, callers: CallerTenants): Promise<void> {
  await requireCoveredCredential(scope, em, { type: 'user', id: userId, tenantId: null, permissions: [] }, callers);
  await requireCoveredOperator(scope, em, userId);
}
