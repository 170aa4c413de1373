import { useCallback, useEffect, useId, useState, type JSX } from 'react';
import { useAsync } from '../hooks/use-async.ts';
import { sameValues } from '../hooks/use-draft.ts';
import { DraftPlace, useKeptPlace } from '../hooks/use-kept.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { mayDiscardChanges, UnsavedParts, useUnsavedPart } from '../hooks/use-unsaved-changes.ts';
import { getTenancyConfig, type NamedTenant, type TenancyConfig, type TenantSummary } from '../operations.ts';
import { mayPickTenant, type MayDo } from '../operations-own-permissions.ts';
import { isPerTenant, type TenantFeature } from '../tenant-features.ts';
import { ErrorMessage, Loading } from './status.tsx';
import { TenantPicker } from './tenant-picker.tsx';

/** A tenant's view of a section: on the application's tab (through the picker), or on the tenant's own screen. */
export interface TenantViewProps {
  appId: string;
  tenant: NamedTenant;
  /** The switches, to show a feature's badges only while tenants may customize it. */
  config: TenancyConfig;
  /** What the operator holds in the tenant, which decides the edits and removals offered. */
  may: MayDo;
}

interface TenantScopedSectionProps {
  appId: string;
  heading: string;
  /** The features the section shows: the tenant picker is there while the switches leave any of them to tenants. */
  features: readonly TenantFeature[];
  /** What the operator holds application-wide: so also in each tenant picked. */
  may: MayDo;
  ApplicationView: (props: { appId: string; may: MayDo }) => JSX.Element;
  TenantView: (props: TenantViewProps) => JSX.Element;
}

/** The application's values and, while a switch leaves a feature to tenants, a "Tenant" picker for a tenant's effective
 *  values. While a tenant's view holds edits, newer switches wait for the operator (they could unmount its forms). */
export function TenantScopedSection({ appId, heading, features, may, ApplicationView, TenantView }: TenantScopedSectionProps) {
  const headingId = useId();
  const tenancy = useAsync(useCallback(() => getTenancyConfig(appId), [appId]));
  useReadOnReturn(tenancy);
  const [tenant, setTenant] = useKeptPlace<TenantSummary | null>('tenant', null);
  const tenantPart = useUnsavedPart();
  const read = tenancy.status === 'done' ? tenancy.data : undefined;
  // The switches the section is shown by: the last read, unless held for a tenant view's edits.
  const [shown, setShown] = useState(read);
  if (shown === undefined && read !== undefined) setShown(read);
  const outdated = shown !== undefined && read !== undefined && !sameValues(shown, read);
  const take = useCallback(
    (next: TenancyConfig | null) => {
      setShown(next);
      if (next === null || !features.some((feature) => isPerTenant(feature, next))) setTenant(null);
    },
    [features],
  );
  const { holdsEdits } = tenantPart;
  // Judged as each read arrives: switches held for edits dropped since wait for the next read, or Load (unasked then).
  useEffect(() => {
    if (outdated && (tenant === null || !holdsEdits())) take(read ?? null);
  }, [outdated, read, tenant, holdsEdits, take]);

  if (tenancy.status === 'loading') return <Loading>Loading the tenancy switches…</Loading>;
  if (tenancy.status === 'failed') return <ErrorMessage message={tenancy.message} />;
  const config = shown ?? tenancy.data;
  const leftToTenants = config !== null && features.some((feature) => isPerTenant(feature, config));
  // Without the tenants' list there is none to pick: the application's values are shown.
  const perTenant = leftToTenants && mayPickTenant(may);
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      {outdated && tenant !== null && (
        <p role="status" className="warning">
          {`The tenancy switches were changed elsewhere: ${tenant.name}'s edits are kept below until you load them. `}
          <button type="button" className="link" onClick={tenantPart.guard(() => take(tenancy.data))}>Load the new switches</button>
        </p>
      )}
      {leftToTenants && (
        <TenantPicker may={may} action={`Showing a tenant's ${heading.toLowerCase()}`} appId={appId} selected={tenant} onSelect={(next) => mayDiscardChanges() && setTenant(next)} />
      )}
      {perTenant && tenant !== null ? (
        <UnsavedParts value={tenantPart.parts}>
          <DraftPlace value={`tenant:${tenant.id}`}>
            <TenantView key={tenant.id} appId={appId} tenant={tenant} config={config} may={may} />
          </DraftPlace>
        </UnsavedParts>
      ) : (
        <ApplicationView appId={appId} may={may} />
      )}
    </section>
  );
}
