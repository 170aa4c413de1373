import { OverrideBadge } from '../components/override-badge.tsx';
import { ErrorMessage } from '../components/status.tsx';
import { useConfirmedAction } from '../hooks/use-confirmed-action.ts';
import { useOverrideRemoval } from '../hooks/use-override-removal.ts';
import { getConfigurationSources, type ConfigurationSources, type Tenant } from '../operations.ts';
import { mayOverride, offersAny, type MayDo } from '../operations-own-permissions.ts';
import { deleteTenant } from '../operations-tenants.ts';
import type { TenantFeature } from '../tenant-features.ts';

interface TenantRowProps {
  appId: string;
  tenant: Tenant;
  /** The features the application lets tenants customize: one badge each. */
  features: readonly TenantFeature[];
  /** Whether each tenant has its own users, who go with it. */
  isolated: boolean;
  /** What the operator holds application-wide: so also in the tenant. */
  may: MayDo;
  /** Whether its rename form is the one open. */
  renaming: boolean;
  onReloaded: (configuration: ConfigurationSources) => void;
  onRename: (tenant: Tenant) => void;
  onDeleted: (tenant: Tenant) => void;
}

/** What goes with a tenant: its own settings and credentials, and its users when each tenant has its own. */
function deletionQuestion(name: string, isolated: boolean): string {
  const users = isolated ? ', and its users, who exist only in this tenant' : '; its members stay users of the application';
  return `Delete the tenant ${name}? Its own branding, e-mail settings, auth providers, policies and domains go with it, as do its API keys, OAuth clients and M2M credentials${users}. This cannot be undone.`;
}

/** The row actions of a tenant the operator's permissions open; none: no Actions column. */
export const tenantActions = (may: MayDo) => ({ rename: may('tenants:write'), delete: may('tenants:delete') });

/**
 * One tenant: name, slug, a badge per feature, "Remove tenant override" where removable; Rename, and Delete once
 * confirmed; each as the operator's permissions allow.
 */
export function TenantRow({ appId, tenant, features, isolated, may, renaming, onReloaded, onRename, onDeleted }: TenantRowProps) {
  const removal = useOverrideRemoval(appId, tenant, async () => onReloaded(await getConfigurationSources(appId, tenant.id)));
  const deletion = useConfirmedAction();
  const offers = tenantActions(may);
  const remove = () =>
    deletion.run(deletionQuestion(tenant.name, isolated), async () => {
      await deleteTenant(appId, tenant.id);
      onDeleted(tenant);
    });

  return (
    <tr>
      <th scope="row">{tenant.name}</th>
      <td>{tenant.slug}</td>
      {features.map((feature) => (
        <td key={feature.label}>
          <OverrideBadge
            source={feature.source(tenant.configuration)}
            override={feature.overrideRemoval !== undefined && mayOverride(may, feature.overrideRemoval) ? feature.override?.(tenant.configuration) : undefined}
            removal={removal}
          />
        </td>
      ))}
      {offersAny(offers) && (
        <td className="actions">
          {offers.rename && (
            <button type="button" className="small" aria-pressed={renaming} onClick={() => onRename(tenant)}>
              Rename<span className="visually-hidden">{` ${tenant.name}`}</span>
            </button>
          )}
          {offers.delete && (
            <button type="button" className="small" disabled={deletion.busy} onClick={remove}>
              Delete<span className="visually-hidden">{` ${tenant.name}`}</span>
            </button>
          )}
          {deletion.failure !== null && <ErrorMessage message={deletion.failure} />}
        </td>
      )}
    </tr>
  );
}
