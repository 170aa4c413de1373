import { useCallback, useState } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { TenantScopedSection, type TenantViewProps } from '../components/tenant-scoped-section.tsx';
import { usePages, type Pages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { listDomains, type Domain } from '../operations-domains.ts';
import type { NamedTenant } from '../operations.ts';
import { AUTHENTICATION } from '../tenant-features.ts';
import { AddDomainForm } from './add-domain-form.tsx';
import { DomainRow } from './domain-row.tsx';

interface DomainTableProps {
  appId: string;
  domains: Pages<Domain>;
  /** Null: the application's domains. */
  tenant: NamedTenant | null;
  onDeleted: (notice: string) => void;
}

function DomainTable({ appId, domains, tenant, onDeleted }: DomainTableProps) {
  return (
    <PagedTable
      pages={domains}
      columns={['Hostname', 'Tenant', 'Status', 'TXT record to publish']}
      actionsHeading="Actions"
      emptyMessage={tenant === null ? 'This application has no custom domains yet.' : `${tenant.name} has no custom domains yet.`}
      loadingLabel="Loading domains…"
      row={(domain) => (
        <DomainRow
          key={domain.id}
          appId={appId}
          domain={domain}
          ownerName={tenant?.name ?? 'Application'}
          onChanged={(changed) => domains.replace(changed.id, changed)}
          onDeleted={(notice) => {
            domains.drop(domain.id);
            onDeleted(notice);
          }}
        />
      )}
    />
  );
}

/** One owner's domains (the application's, or a tenant's), and adding one. */
function DomainList({ appId, tenant }: { appId: string; tenant: NamedTenant | null }) {
  const tenantId = tenant?.id ?? null;
  const domains = usePages(useCallback((cursor: string | null) => listDomains(appId, tenantId, cursor), [appId, tenantId]));
  useReadOnReturn(domains);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <>
      <p className="hint">
        A custom domain serves the hosted sign-in pages at your own hostname once it is verified: publish its TXT record in
        your DNS, then Verify.
      </p>
      {notice !== null && <p role="status">{notice}</p>}
      <DomainTable appId={appId} domains={domains} tenant={tenant} onDeleted={setNotice} />
      <AddDomainForm
        appId={appId}
        tenant={tenant}
        onAdded={(domain) => {
          setNotice(null);
          domains.add(domain);
        }}
      />
    </>
  );
}

const ApplicationDomains = ({ appId }: { appId: string }) => <DomainList appId={appId} tenant={null} />;
const TenantDomains = ({ appId, tenant }: TenantViewProps) => <DomainList appId={appId} tenant={tenant} />;

/** The application's custom domains and, while authentication is isolated, a tenant's own through the picker. */
export function Domains({ appId }: { appId: string }) {
  return <TenantScopedSection appId={appId} heading="Domains" features={[AUTHENTICATION]} ApplicationView={ApplicationDomains} TenantView={TenantDomains} />;
}
