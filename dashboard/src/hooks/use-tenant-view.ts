import { useCallback } from 'react';
import type { TenantSummary } from '../operations.ts';
import { useAsync, type Async } from './use-async.ts';
import { useOverrideRemoval, type OverrideRemoval } from './use-override-removal.ts';

/**
 * What a tab shows of one tenant, loaded with `load` (a stable function) and loaded again after each removal, or when
 * the tab calls `reload` (after a save).
 */
export function useTenantView<T>(
  appId: string,
  tenant: TenantSummary,
  load: (appId: string, tenantId: string) => Promise<T>,
): { view: Async<T>; removal: OverrideRemoval; reload: () => Promise<void> } {
  const view = useAsync(useCallback(() => load(appId, tenant.id), [load, appId, tenant.id]));
  const reload = async () => view.replace(await load(appId, tenant.id));
  const removal = useOverrideRemoval(appId, tenant, reload);
  return { view, removal, reload };
}
