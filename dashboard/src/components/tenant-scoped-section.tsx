import { useCallback, useId, useState, type JSX } from 'react';
import { useAsync } from '../hooks/use-async.ts';
import { mayDiscardChanges } from '../hooks/use-unsaved-changes.ts';
import { getTenancyConfig, type TenancyConfig, type TenantSummary } from '../operations.ts';
import { isPerTenant, type TenantFeature } from '../tenant-features.ts';
import { ErrorMessage, Loading } from './status.tsx';
import { TenantPicker } from './tenant-picker.tsx';

export interface TenantViewProps {
  appId: string;
  tenant: TenantSummary;
  /** The switches, to show a feature's badges only while tenants may customize it. */
  config: TenancyConfig;
}

interface TenantScopedSectionProps {
  appId: string;
  heading: string;
  /** The features the section shows: the tenant picker is there while the switches leave any of them to tenants. */
  features: readonly TenantFeature[];
  ApplicationView: (props: { appId: string }) => JSX.Element;
  TenantView: (props: TenantViewProps) => JSX.Element;
}

/**
 * A tab of per-tenant features: the application's values and, while a switch leaves a feature to tenants, the "Tenant"
 * picker that shows a tenant's effective values instead.
 */
export function TenantScopedSection({ appId, heading, features, ApplicationView, TenantView }: TenantScopedSectionProps) {
  const headingId = useId();
  const tenancy = useAsync(useCallback(() => getTenancyConfig(appId), [appId]));
  const [tenant, setTenant] = useState<TenantSummary | null>(null);

  if (tenancy.status === 'loading') return <Loading>Loading the tenancy switches…</Loading>;
  if (tenancy.status === 'failed') return <ErrorMessage message={tenancy.message} />;
  const config = tenancy.data;
  const perTenant = config !== null && features.some((feature) => isPerTenant(feature, config));
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      {perTenant && <TenantPicker appId={appId} selected={tenant} onSelect={(next) => mayDiscardChanges() && setTenant(next)} />}
      {perTenant && tenant !== null ? (
        <TenantView key={tenant.id} appId={appId} tenant={tenant} config={config} />
      ) : (
        <ApplicationView appId={appId} />
      )}
    </section>
  );
}
