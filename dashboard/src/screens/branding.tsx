import { useCallback, useState } from 'react';
import { BrandingDetails } from '../components/branding-details.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { TenantPicker } from '../components/tenant-picker.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useOverrideRemoval } from '../hooks/use-override-removal.ts';
import { getApplicationBranding, getTenancyConfig, getTenantBranding, type TenantSummary } from '../operations.ts';
import { BRANDING, isPerTenant, SOURCE_LABEL } from '../tenant-features.ts';

function ApplicationBranding({ appId }: { appId: string }) {
  const branding = useAsync(useCallback(() => getApplicationBranding(appId), [appId]));
  if (branding.status === 'loading') return <Loading>Loading the branding…</Loading>;
  if (branding.status === 'failed') return <ErrorMessage message={branding.message} />;
  return <BrandingDetails branding={branding.data} />;
}

/** A tenant's effective branding, whether it is its own, and "Remove tenant override" when it is. */
function TenantBranding({ appId, tenant }: { appId: string; tenant: TenantSummary }) {
  const view = useAsync(useCallback(() => getTenantBranding(appId, tenant.id), [appId, tenant.id]));
  const removal = useOverrideRemoval(appId, tenant, async () => view.replace(await getTenantBranding(appId, tenant.id)));

  if (view.status === 'loading') return <Loading>{`Loading ${tenant.name}'s branding…`}</Loading>;
  if (view.status === 'failed') return <ErrorMessage message={view.message} />;
  const source = BRANDING.source(view.data);
  return (
    <>
      <p>
        <span className={`badge ${source}`}>{SOURCE_LABEL[source]}</span>
        {source === 'customized' && (
          <button type="button" className="small" disabled={removal.busy} onClick={() => removal.remove(BRANDING, view.data)}>
            Remove tenant override
          </button>
        )}
      </p>
      {removal.failure !== null && <ErrorMessage message={removal.failure.message} />}
      <BrandingDetails branding={view.data.branding} />
    </>
  );
}

/** The hosted pages' branding: the application's and, while branding is per tenant, each tenant's through the picker. */
export function Branding({ appId }: { appId: string }) {
  const tenancy = useAsync(useCallback(() => getTenancyConfig(appId), [appId]));
  const [tenant, setTenant] = useState<TenantSummary | null>(null);

  if (tenancy.status === 'loading') return <Loading>Loading the tenancy switches…</Loading>;
  if (tenancy.status === 'failed') return <ErrorMessage message={tenancy.message} />;
  const perTenant = tenancy.data !== null && isPerTenant(BRANDING, tenancy.data);
  return (
    <section aria-labelledby="branding-heading">
      <h2 id="branding-heading">Branding</h2>
      {perTenant && <TenantPicker appId={appId} selected={tenant} onSelect={setTenant} />}
      {perTenant && tenant !== null ? <TenantBranding key={tenant.id} appId={appId} tenant={tenant} /> : <ApplicationBranding appId={appId} />}
    </section>
  );
}
