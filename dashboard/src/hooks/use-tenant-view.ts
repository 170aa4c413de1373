import { useCallback } from 'react';
import type { NamedTenant } from '../operations.ts';
import { useAsync, type Async } from './use-async.ts';
import { useOverrideRemoval, type OverrideRemoval } from './use-override-removal.ts';
import { useReadOnReturn } from './use-read-on-return.ts';

/** `load` must be stable; loaded again after each removal, on `reload` (after a save), and when the operator comes back. */
export function useTenantView<T>(
  appId: string,
  tenant: NamedTenant,
  load: (appId: string, tenantId: string) => Promise<T>,
): { view: Async<T>; removal: OverrideRemoval; reload: () => Promise<void> } {
  const view = useAsync(useCallback(() => load(appId, tenant.id), [load, appId, tenant.id]));
  useReadOnReturn(view);
  const reload = async () => view.replace(await load(appId, tenant.id));
  const removal = useOverrideRemoval(appId, tenant, reload);
  return { view, removal, reload };
}
