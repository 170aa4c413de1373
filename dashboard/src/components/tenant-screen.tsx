import { useCallback, useId, type JSX } from 'react';
import { useAsync } from '../hooks/use-async.ts';
import { getTenantTenancyConfig, type NamedTenant } from '../operations.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import { ErrorMessage, Loading } from './status.tsx';
import type { TenantViewProps } from './tenant-scoped-section.tsx';

interface TenantScreenProps {
  appId: string;
  tenant: NamedTenant;
  heading: string;
  /** What the operator holds in the tenant, which decides what the view offers. */
  may: MayDo;
  /** The section's tenant view, the one its tab shows through the picker. */
  TenantView: (props: TenantViewProps) => JSX.Element;
}

/**
 * A section's tenant view on a tenant's own screen, for an operator of some tenants only: the switches read in the
 * tenant's scope (nothing of the application's), then the view as its tab shows it. They are read as the screen opens, not on each return: newer switches could unmount a form holding edits, and a
 * save the switches no longer allow is refused by the server (409), its message shown.
 */
export function TenantScreen({ appId, tenant, heading, may, TenantView }: TenantScreenProps) {
  const headingId = useId();
  const { id } = tenant;
  const config = useAsync(useCallback(() => getTenantTenancyConfig(appId, id), [appId, id]));
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      {config.status === 'loading' && <Loading>{`Loading ${tenant.name}'s settings…`}</Loading>}
      {config.status === 'failed' && <ErrorMessage message={config.message} />}
      {config.status === 'done' && <TenantView appId={appId} tenant={tenant} config={config.data} may={may} />}
    </section>
  );
}
