import { useState } from 'react';
import { errorMessage } from '../error-message.ts';
import type { ConfigurationSources, TenantSummary } from '../operations.ts';
import type { TenantFeature } from '../tenant-features.ts';

export interface OverrideRemoval {
  /** Whether a removal is under way (the tenant's removal buttons are disabled meanwhile). */
  readonly busy: boolean;
  /** Why the last removal, or the reading after it, failed; null after a success. */
  readonly failure: { readonly feature: string; readonly message: string } | null;
  remove: (feature: TenantFeature, configuration: ConfigurationSources) => void;
}

/**
 * "Remove tenant override" for one tenant: asks to confirm, removes, then `reload`s the tenant, even after a failure,
 * since e-mail templates are removed one by one and some may be gone.
 */
export function useOverrideRemoval(appId: string, tenant: TenantSummary, reload: () => Promise<void>): OverrideRemoval {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<OverrideRemoval['failure']>(null);

  const remove = async (feature: TenantFeature, configuration: ConfigurationSources) => {
    const question = `Remove ${tenant.name}'s own ${feature.label.toLowerCase()}? The tenant will use the application's again.`;
    if (feature.removeOverride === undefined || !window.confirm(question)) return;
    setBusy(true);
    setFailure(null);
    try {
      await feature.removeOverride(appId, tenant.id, configuration);
    } catch (error) {
      setFailure({ feature: feature.label, message: errorMessage(error) });
    }
    try {
      await reload();
    } catch (error) {
      setFailure((earlier) => earlier ?? { feature: feature.label, message: errorMessage(error) });
    }
    setBusy(false);
  };

  return { busy, failure, remove: (feature, configuration) => void remove(feature, configuration) };
}
