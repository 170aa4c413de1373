import { useState } from 'react';
import { ErrorMessage } from '../components/status.tsx';
import { errorMessage } from '../error-message.ts';
import { getConfigurationSources, type ConfigurationSources, type Tenant } from '../operations.ts';
import { SOURCE_LABEL, type TenantFeature } from '../tenant-features.ts';

interface TenantRowProps {
  appId: string;
  tenant: Tenant;
  /** The features the application lets tenants customize: one badge each. */
  features: readonly TenantFeature[];
  onReloaded: (configuration: ConfigurationSources) => void;
}

/** One tenant: name, slug, a badge per feature, and "Remove tenant override" where it is customized and removable. */
export function TenantRow({ appId, tenant, features, onReloaded }: TenantRowProps) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ feature: string; message: string } | null>(null);

  const removeOverride = async (feature: TenantFeature) => {
    const question = `Remove ${tenant.name}'s own ${feature.label.toLowerCase()}? The tenant will use the application's again.`;
    if (feature.removeOverride === undefined || !window.confirm(question)) return;
    setBusy(true);
    setFailure(null);
    try {
      await feature.removeOverride(appId, tenant.id, tenant.configuration);
    } catch (error) {
      setFailure({ feature: feature.label, message: errorMessage(error) });
    }
    // Read the row again even after a failure: e-mail templates are removed one by one, and some may be gone.
    try {
      onReloaded(await getConfigurationSources(appId, tenant.id));
    } catch (error) {
      setFailure((earlier) => earlier ?? { feature: feature.label, message: errorMessage(error) });
    }
    setBusy(false);
  };

  return (
    <tr>
      <th scope="row">{tenant.name}</th>
      <td>{tenant.slug}</td>
      {features.map((feature) => {
        const source = feature.source(tenant.configuration);
        return (
          <td key={feature.label}>
            <span className={`badge ${source}`}>{SOURCE_LABEL[source]}</span>
            {source === 'customized' && feature.removeOverride !== undefined && (
              <button type="button" className="small" disabled={busy} onClick={() => void removeOverride(feature)}>
                Remove tenant override
              </button>
            )}
            {failure?.feature === feature.label && <ErrorMessage message={failure.message} />}
          </td>
        );
      })}
    </tr>
  );
}
