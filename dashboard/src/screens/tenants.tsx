import { useCallback, useState } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { UnlistedRow } from '../components/unlisted-row.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useOpenRow } from '../hooks/use-open-row.ts';
import { usePages, type Pages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { UnsavedParts, useUnsavedPart } from '../hooks/use-unsaved-changes.ts';
import { getConfigurationSources, getTenancyConfig, listTenants, type TenancyConfig, type Tenant, type TenantSummary } from '../operations.ts';
import { offersAny, type MayDo } from '../operations-own-permissions.ts';
import { isPerTenant, TENANT_FEATURES, type TenantFeature } from '../tenant-features.ts';
import { TenancySwitches } from './tenancy-switches.tsx';
import { TenantForm } from './tenant-form.tsx';
import type { ApplicationScreenProps } from './application.tsx';
import { TenantRow, tenantActions } from './tenant-row.tsx';

interface TenantTableProps {
  appId: string;
  tenants: Pages<Tenant>;
  features: readonly TenantFeature[];
  isolated: boolean;
  may: MayDo;
  onDeleted: (tenant: Tenant) => void;
}

/** The tenants page by page, with a badge per feature they may customize, Rename and Delete; the rename form under them. */
function TenantTable({ appId, tenants, features, isolated, may, onDeleted }: TenantTableProps) {
  const unsaved = useUnsavedPart();
  const renaming = useOpenRow('tenants', tenants.items, (tenant) => tenant.id, unsaved);
  return (
    <section aria-labelledby="tenants-heading">
      <h2 id="tenants-heading">Tenants</h2>
      <PagedTable
        pages={tenants}
        columns={['Name', 'Slug', ...features.map((feature) => feature.label)]}
        actionsHeading={offersAny(tenantActions(may)) ? 'Actions' : undefined}
        emptyMessage="This application has no tenants yet."
        loadingLabel="Loading tenants…"
        row={(tenant) => (
          <TenantRow
            key={tenant.id}
            appId={appId}
            tenant={tenant}
            features={features}
            isolated={isolated}
            may={may}
            renaming={renaming.isOpen(tenant)}
            onReloaded={(configuration) => tenants.replace(tenant.id, { configuration })}
            onRename={renaming.open}
            onDeleted={(deleted) => {
              tenants.drop(deleted.id);
              renaming.forget(deleted);
              onDeleted(deleted);
            }}
          />
        )}
      />
      <UnlistedRow panel={renaming} gone={(tenant) => `The tenant ${tenant.name} was deleted elsewhere.`} />
      {renaming.row !== undefined && may('tenants:write') && (
        <UnsavedParts value={unsaved.parts}>
          <TenantForm
            key={renaming.row.id}
            appId={appId}
            tenant={renaming.row}
            onSaved={(renamed) => tenants.replace(renamed.id, renamed)}
            onClose={renaming.close}
          />
        </UnsavedParts>
      )}
    </section>
  );
}

/**
 * The tenancy switches, then the tenants with a badge column for each feature the switches leave to tenants; Create
 * tenant. What the operator may not change is shown, not offered.
 */
export function Tenants({ appId, may }: ApplicationScreenProps) {
  const tenancy = useAsync(useCallback(() => getTenancyConfig(appId), [appId]));
  useReadOnReturn(tenancy);
  const tenants = usePages(useCallback((cursor: string | null) => listTenants(appId, cursor), [appId]));
  useReadOnReturn(tenants);
  const [notice, setNotice] = useState<string | null>(null);

  if (tenancy.status === 'loading') return <Loading>Loading the tenancy switches…</Loading>;
  if (tenancy.status === 'failed') return <ErrorMessage message={tenancy.message} />;
  const config = tenancy.data;
  const features = config === null ? [] : TENANT_FEATURES.filter((feature) => isPerTenant(feature, config));
  const saved = (next: TenancyConfig) => {
    tenancy.replace(next);
    // Every tenant's sources follow the switches: the pages shown are read again.
    tenants.refresh();
  };
  // A new tenant's sources are the application's settings as they stand: read for it alone.
  const created = async (tenant: TenantSummary) => tenants.add({ ...tenant, configuration: await getConfigurationSources(appId, tenant.id) });

  return (
    <>
      {config !== null && <TenancySwitches appId={appId} config={config} writable={may('applications:write')} onSaved={saved} />}
      {notice !== null && <p role="status">{notice}</p>}
      <TenantTable
        appId={appId}
        tenants={tenants}
        features={features}
        isolated={config?.authIsolation === 'isolated'}
        may={may}
        onDeleted={(deleted) => setNotice(`Tenant ${deleted.name} is deleted.`)}
      />
      {may('tenants:write') && (
        <TenantForm
          appId={appId}
          onSaved={(tenant) => {
            setNotice(null);
            void created(tenant).catch(tenants.refresh);
          }}
        />
      )}
    </>
  );
}
