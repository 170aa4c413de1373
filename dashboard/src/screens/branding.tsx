import { useCallback } from 'react';
import { BrandingDetails } from '../components/branding-details.tsx';
import { BrandingForm } from '../components/branding-form.tsx';
import { OverrideBadge } from '../components/override-badge.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { Subsection } from '../components/subsection.tsx';
import { TenantScopedSection, type TenantViewProps } from '../components/tenant-scoped-section.tsx';
import { TenantScreen } from '../components/tenant-screen.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { useTenantView } from '../hooks/use-tenant-view.ts';
import { getApplicationBranding, getTenantBranding, putBranding, type BrandingInput, type NamedTenant } from '../operations.ts';
import { mayOverride, type MayDo } from '../operations-own-permissions.ts';
import { BRANDING, isPerTenant } from '../tenant-features.ts';

/** The application's branding, and its form to an operator who may change it. */
function ApplicationBranding({ appId, may }: { appId: string; may: MayDo }) {
  const branding = useAsync(useCallback(() => getApplicationBranding(appId), [appId]));
  useReadOnReturn(branding);
  if (branding.status === 'loading') return <Loading>Loading the branding…</Loading>;
  if (branding.status === 'failed') return <ErrorMessage message={branding.message} />;
  const save = (input: BrandingInput) => putBranding(appId, null, input);
  return (
    <>
      <BrandingDetails branding={branding.data} />
      {may('branding:write') && (
        <Subsection title="Change the branding">
          <BrandingForm branding={branding.data} save={save} onSaved={branding.replace} />
        </Subsection>
      )}
    </>
  );
}

/**
 * A tenant's effective branding, whether it is its own, and "Remove tenant override" when it is. Its form starts from
 * the branding in force, and saving makes the tenant's override: the whole branding, as the API keeps it (no merge).
 * While branding is the application's, the tenant's screen shows it applying, not editable there.
 */
function TenantBranding({ appId, tenant, config, may }: TenantViewProps) {
  const { view, removal } = useTenantView(appId, tenant, getTenantBranding);
  if (view.status === 'loading') return <Loading>{`Loading ${tenant.name}'s branding…`}</Loading>;
  if (view.status === 'failed') return <ErrorMessage message={view.message} />;
  if (!isPerTenant(BRANDING, config)) {
    return (
      <>
        <p className="hint">{`Branding is set for the whole application: the application's branding applies to ${tenant.name}, and is not editable here.`}</p>
        <BrandingDetails branding={view.data.branding} />
      </>
    );
  }
  const save = (input: BrandingInput) => putBranding(appId, tenant.id, input);
  return (
    <>
      <div className="source">
        <OverrideBadge
          source={BRANDING.source(view.data)}
          override={mayOverride(may, 'branding:delete') ? BRANDING.override?.(view.data) : undefined}
          removal={removal}
        />
      </div>
      <BrandingDetails branding={view.data.branding} />
      {mayOverride(may, 'branding:write') && (
        <Subsection title={`Change ${tenant.name}'s branding`}>
          <p className="hint">
            {`Saving gives ${tenant.name} a branding of its own, all of these values: the application's later changes no longer reach it until its override is removed. The tenant picker, shown before a tenant is chosen, keeps the application's texts.`}
          </p>
          <BrandingForm forTenant branding={view.data.branding} save={save} onSaved={(saved) => view.replace({ ...view.data, branding: saved })} />
        </Subsection>
      )}
    </>
  );
}

/** One tenant's branding on its own screen, for an operator of some tenants only. */
export function TenantBrandingScreen({ appId, tenant, may }: { appId: string; tenant: NamedTenant; may: MayDo }) {
  return <TenantScreen appId={appId} tenant={tenant} heading={`Branding of ${tenant.name}`} may={may} TenantView={TenantBranding} />;
}

/** The hosted pages' branding: the application's and, while branding is per tenant, each tenant's through the picker. */
export function Branding({ appId, may }: { appId: string; may: MayDo }) {
  return <TenantScopedSection appId={appId} may={may} heading="Branding" features={[BRANDING]} ApplicationView={ApplicationBranding} TenantView={TenantBranding} />;
}
