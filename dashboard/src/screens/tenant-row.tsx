import { OverrideBadge } from '../components/override-badge.tsx';
import { useOverrideRemoval } from '../hooks/use-override-removal.ts';
import { getConfigurationSources, type ConfigurationSources, type Tenant } from '../operations.ts';
import type { TenantFeature } from '../tenant-features.ts';

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
      {features.map((feature) => (
        <td key={feature.label}>
          <OverrideBadge source={feature.source(tenant.configuration)} override={feature.override?.(tenant.configuration)} removal={removal} />
        </td>
      ))}
    </tr>
  );
}
