import { useState } from 'react';
import { errorMessage } from '../error-message.ts';
import type { NamedTenant } from '../operations.ts';
import type { TenantOverride } from '../tenant-features.ts';

export interface OverrideRemoval {
  readonly tenantName: string;
  /** Whether a removal is under way (the tenant's removal buttons are disabled meanwhile). */
  readonly busy: boolean;
  /** Why the last removal, or the reading after it, failed (`label` names the override); null after a success. */
  readonly failure: { readonly label: string; readonly message: string } | null;
  remove: (override: TenantOverride) => void;
}

/** Confirms, removes, then `reload`s the tenant even after a failure: some overrides go piece by piece (templates,
 *  providers), and some pieces may be gone. */
export function useOverrideRemoval(appId: string, tenant: NamedTenant, reload: () => Promise<void>): OverrideRemoval {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<OverrideRemoval['failure']>(null);

  const remove = async (override: TenantOverride) => {
    const question = `Remove ${tenant.name}'s own ${override.label}? The tenant will use the application's ${override.label} again.`;
    if (!window.confirm(question)) return;
    setBusy(true);
    setFailure(null);
    try {
      await override.remove(appId, tenant.id);
    } catch (error) {
      setFailure({ label: override.label, message: errorMessage(error) });
    }
    try {
      await reload();
    } catch (error) {
      setFailure((earlier) => earlier ?? { label: override.label, message: errorMessage(error) });
    }
    setBusy(false);
  };

  return { tenantName: tenant.name, busy, failure, remove: (override) => void remove(override) };
}
