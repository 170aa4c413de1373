import { useCallback, useState } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { usePages } from '../hooks/use-pages.ts';
import { getTenancyConfig, listTenants, type TenancyConfig } from '../operations.ts';
import { isPerTenant, TENANT_FEATURES, type TenantFeature } from '../tenant-features.ts';
import { TenancySwitches } from './tenancy-switches.tsx';
import { TenantRow } from './tenant-row.tsx';

/** The tenants page by page, with a badge per feature they may customize. */
function TenantTable({ appId, features }: { appId: string; features: readonly TenantFeature[] }) {
  const tenants = usePages(useCallback((cursor: string | null) => listTenants(appId, cursor), [appId]));
  return (
    <section aria-labelledby="tenants-heading">
      <h2 id="tenants-heading">Tenants</h2>
      <PagedTable
        pages={tenants}
        columns={['Name', 'Slug', ...features.map((feature) => feature.label)]}
        emptyMessage="This application has no tenants yet."
        loadingLabel="Loading tenants…"
        row={(tenant) => (
          <TenantRow
            key={tenant.id}
            appId={appId}
            tenant={tenant}
            features={features}
            onReloaded={(configuration) => tenants.update((row) => (row.id === tenant.id ? { ...row, configuration } : row))}
          />
        )}
      />
    </section>
  );
}

/** The tenancy switches, then the tenants with a badge column for each feature the switches leave to tenants. */
export function Tenants({ appId }: { appId: string }) {
  const tenancy = useAsync(useCallback(() => getTenancyConfig(appId), [appId]));
  const [saves, setSaves] = useState(0);

  if (tenancy.status === 'loading') return <Loading>Loading the tenancy switches…</Loading>;
  if (tenancy.status === 'failed') return <ErrorMessage message={tenancy.message} />;
  const config = tenancy.data;
  const features = config === null ? [] : TENANT_FEATURES.filter((feature) => isPerTenant(feature, config));
  const saved = (next: TenancyConfig) => {
    tenancy.replace(next);
    setSaves((count) => count + 1);
  };

  return (
    <>
      {config !== null && <TenancySwitches appId={appId} config={config} onSaved={saved} />}
      {/* Read again after each save: a tenant's sources follow the switches (hidden overrides reappear per tenant). */}
      <TenantTable key={saves} appId={appId} features={features} />
    </>
  );
}
