import type { Services } from '../../services.ts';

/**
 * Every instance forgets what its read cache (src/rest/read-cache.ts) holds of the application's users. Every write
 * of a user's row calls this once it has committed, whatever wrote it.
 */
export async function usersChanged(services: Pick<Services, 'invalidations'>, applicationId: string): Promise<void> {
  await services.invalidations.publish({ kind: 'users', id: applicationId });
}
