import type { Services } from '../../services.ts';

/** Every write of a user's row calls this once committed: every instance forgets its read cache (src/rest/read-cache.ts) of them. */
export async function usersChanged(services: Pick<Services, 'invalidations'>, applicationId: string): Promise<void> {
  await services.invalidations.publish({ kind: 'users', id: applicationId });
}
