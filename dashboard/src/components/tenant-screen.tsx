import { useCallback, useId, type JSX } from 'react';
import { useAsync } from '../hooks/use-async.ts';
import { getTenantTenancyConfig, type NamedTenant } from '../operations.ts';
import { readOwnPermissions } from '../operations-own-permissions.ts';
import { ErrorMessage, Loading } from './status.tsx';
import type { TenantViewProps } from './tenant-scoped-section.tsx';

interface TenantScreenProps {
  appId: string;
  tenant: NamedTenant;
  heading: string;
  /** The permissions in the tenant that decide what the view offers. */
  permissions: readonly string[];
  /** The section's tenant view, the one its tab shows through the picker. */
  TenantView: (props: TenantViewProps) => JSX.Element;
}

/**
 * A section's tenant view on a tenant's own screen, for an operator of some tenants only: the switches and the
 * operator's permissions read in the tenant's scope (nothing of the application's), then the view as its tab shows it.
 * They are read as the screen opens, not on each return: newer switches could unmount a form holding edits, and a
 * save the switches no longer allow is refused by the server (409), its message shown.
 */
export function TenantScreen({ appId, tenant, heading, permissions, TenantView }: TenantScreenProps) {
  const headingId = useId();
  const { id } = tenant;
  const setup = useAsync(
    useCallback(async () => {
      const scope = { appId, tenantId: id };
      const [config, may] = await Promise.all([getTenantTenancyConfig(appId, id), readOwnPermissions(scope, permissions)]);
      return { config, may };
    }, [appId, id, permissions]),
  );
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      {setup.status === 'loading' && <Loading>{`Loading ${tenant.name}'s settings…`}</Loading>}
      {setup.status === 'failed' && <ErrorMessage message={setup.message} />}
      {setup.status === 'done' && <TenantView appId={appId} tenant={tenant} config={setup.data.config} may={setup.data.may} />}
    </section>
  );
}
