import { ErrorMessage } from '../components/status.tsx';
import { useOverrideRemoval } from '../hooks/use-override-removal.ts';
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
  const removal = useOverrideRemoval(appId, tenant, async () => onReloaded(await getConfigurationSources(appId, tenant.id)));

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
              <button type="button" className="small" disabled={removal.busy} onClick={() => removal.remove(feature, tenant.configuration)}>
                Remove tenant override
              </button>
            )}
            {removal.failure?.feature === feature.label && <ErrorMessage message={removal.failure.message} />}
          </td>
        );
      })}
    </tr>
  );
}
