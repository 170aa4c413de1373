import { useCallback } from 'react';
import { PageFooter } from '../components/page-footer.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { usePages } from '../hooks/use-pages.ts';
import { getTenancyConfig, listTenants, type TenancyConfig } from '../operations.ts';
import { TENANT_FEATURES } from '../tenant-features.ts';
import { TenantRow } from './tenant-row.tsx';

/** The application's four tenancy switches, in the spec's words. */
function TenancySwitches({ config }: { config: TenancyConfig }) {
  return (
    <section aria-labelledby="tenancy-heading">
      <h2 id="tenancy-heading">Tenancy</h2>
      <dl className="switches">
        {TENANT_FEATURES.map((feature) => (
          <div key={feature.label}>
            <dt>{feature.label}</dt>
            <dd>{feature.setting(config)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The tenancy switches, then the tenants page by page with a badge per feature they may customize. */
export function Tenants({ appId }: { appId: string }) {
  const tenancy = useAsync(useCallback(() => getTenancyConfig(appId), [appId]));
  const tenants = usePages(useCallback((cursor: string | null) => listTenants(appId, cursor), [appId]));

  if (tenancy.status === 'loading') return <Loading>Loading the tenancy switches…</Loading>;
  if (tenancy.status === 'failed') return <ErrorMessage message={tenancy.message} />;
  const config = tenancy.data;
  const features = config === null ? [] : TENANT_FEATURES.filter((feature) => feature.perTenant(config));

  return (
    <>
      {config !== null && <TenancySwitches config={config} />}
      <section aria-labelledby="tenants-heading">
        <h2 id="tenants-heading">Tenants</h2>
        {!tenants.loading && tenants.error === null && tenants.items.length === 0 ? (
          <p>This application has no tenants yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Slug</th>
                {features.map((feature) => <th scope="col" key={feature.label}>{feature.label}</th>)}
              </tr>
            </thead>
            <tbody>
              {tenants.items.map((tenant) => (
                <TenantRow
                  key={tenant.id}
                  appId={appId}
                  tenant={tenant}
                  features={features}
                  onReloaded={(configuration) => tenants.update((row) => (row.id === tenant.id ? { ...row, configuration } : row))}
                />
              ))}
            </tbody>
          </table>
        )}
        <PageFooter pages={tenants} loadingLabel="Loading tenants…" />
      </section>
    </>
  );
}
