import type { Services } from '../../services.ts';

/**
 * After the commit of any change to an application's users (a user created, changed, locked, unlocked or deleted, a
 * membership added or removed): every instance forgets the answers its read cache (src/rest/read-cache.ts) holds of
 * that application's users. Every write of a user's row calls this once it has committed, whatever wrote it.
 */
export async function usersChanged(services: Pick<Services, 'invalidations'>, applicationId: string): Promise<void> {
  await services.invalidations.publish({ kind: 'users', id: applicationId });
}
