import { useCallback } from 'react';
import { BrandingDetails } from '../components/branding-details.tsx';
import { OverrideBadge } from '../components/override-badge.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { TenantScopedSection, type TenantViewProps } from '../components/tenant-scoped-section.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useTenantView } from '../hooks/use-tenant-view.ts';
import { getApplicationBranding, getTenantBranding } from '../operations.ts';
import { BRANDING } from '../tenant-features.ts';

function ApplicationBranding({ appId }: { appId: string }) {
  const branding = useAsync(useCallback(() => getApplicationBranding(appId), [appId]));
  if (branding.status === 'loading') return <Loading>Loading the branding…</Loading>;
  if (branding.status === 'failed') return <ErrorMessage message={branding.message} />;
  return <BrandingDetails branding={branding.data} />;
}

/** A tenant's effective branding, whether it is its own, and "Remove tenant override" when it is. */
function TenantBranding({ appId, tenant }: TenantViewProps) {
  const { view, removal } = useTenantView(appId, tenant, getTenantBranding);
  if (view.status === 'loading') return <Loading>{`Loading ${tenant.name}'s branding…`}</Loading>;
  if (view.status === 'failed') return <ErrorMessage message={view.message} />;
  return (
    <>
      <div className="source">
        <OverrideBadge source={BRANDING.source(view.data)} override={BRANDING.override?.(view.data)} removal={removal} />
      </div>
      <BrandingDetails branding={view.data.branding} />
    </>
  );
}

/** The hosted pages' branding: the application's and, while branding is per tenant, each tenant's through the picker. */
export function Branding({ appId }: { appId: string }) {
  return <TenantScopedSection appId={appId} heading="Branding" features={[BRANDING]} ApplicationView={ApplicationBranding} TenantView={TenantBranding} />;
}
