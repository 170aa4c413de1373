import { useCallback, useState } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { TenantScopedSection, type TenantViewProps } from '../components/tenant-scoped-section.tsx';
import { TenantScreen } from '../components/tenant-screen.tsx';
import { usePages, type Pages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { listDomains, type Domain } from '../operations-domains.ts';
import { mayOverride, type MayDo } from '../operations-own-permissions.ts';
import type { NamedTenant } from '../operations.ts';
import { AUTHENTICATION } from '../tenant-features.ts';
import { AddDomainForm } from './add-domain-form.tsx';
import { DomainRow } from './domain-row.tsx';

interface DomainTableProps {
  appId: string;
  domains: Pages<Domain>;
  /** Null: the application's domains. */
  tenant: NamedTenant | null;
  mayVerify: boolean;
  mayDelete: boolean;
  onDeleted: (notice: string) => void;
}

function DomainTable({ appId, domains, tenant, mayVerify, mayDelete, onDeleted }: DomainTableProps) {
  return (
    <PagedTable
      pages={domains}
      columns={['Hostname', 'Tenant', 'Status', 'TXT record to publish']}
      actionsHeading={mayVerify || mayDelete ? 'Actions' : undefined}
      emptyMessage={tenant === null ? 'This application has no custom domains yet.' : `${tenant.name} has no custom domains yet.`}
      loadingLabel="Loading domains…"
      row={(domain) => (
        <DomainRow
          key={domain.id}
          appId={appId}
          domain={domain}
          ownerName={tenant?.name ?? 'Application'}
          mayVerify={mayVerify}
          mayDelete={mayDelete}
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

interface DomainListProps {
  appId: string;
  /** Null: the application's domains. */
  tenant: NamedTenant | null;
  /** What the operator holds where the list is: adding and verifying take `domains:write`, deleting `domains:delete`. */
  may: MayDo;
}

/** One owner's domains (the application's, or a tenant's), and adding one. */
function DomainList({ appId, tenant, may }: DomainListProps) {
  const tenantId = tenant?.id ?? null;
  const domains = usePages(useCallback((cursor: string | null) => listDomains(appId, tenantId, cursor), [appId, tenantId]));
  useReadOnReturn(domains);
  const [notice, setNotice] = useState<string | null>(null);
  // A tenant's domain is its override: in its scope the API also requires tenant_overrides:write.
  const holds = (permission: string) => (tenant === null ? may(permission) : mayOverride(may, permission));
  const mayWrite = holds('domains:write');
  const mayDelete = holds('domains:delete');
  return (
    <>
      <p className="hint">
        A custom domain serves the hosted sign-in pages at your own hostname once it is verified: publish its TXT record in
        your DNS, then Verify.
      </p>
      {notice !== null && <p role="status">{notice}</p>}
      <DomainTable appId={appId} domains={domains} tenant={tenant} mayVerify={mayWrite} mayDelete={mayDelete} onDeleted={setNotice} />
      {mayWrite && (
        <AddDomainForm
          appId={appId}
          tenant={tenant}
          onAdded={(domain) => {
            setNotice(null);
            domains.add(domain);
          }}
        />
      )}
    </>
  );
}

const ApplicationDomains = ({ appId, may }: { appId: string; may: MayDo }) => <DomainList appId={appId} tenant={null} may={may} />;

/** A tenant's own domains, which it has only while authentication is isolated (spec, tenancy rule 7). */
function TenantDomains({ appId, tenant, config, may }: TenantViewProps) {
  if (config.authIsolation !== 'isolated') {
    return <p className="hint">{`Authentication is shared: the application's custom domains serve every tenant, ${tenant.name} included, and none is its own.`}</p>;
  }
  return <DomainList appId={appId} tenant={tenant} may={may} />;
}

/** One tenant's own custom domains on its own screen, for an operator of some tenants only. */
export function TenantDomainsScreen({ appId, tenant, may }: { appId: string; tenant: NamedTenant; may: MayDo }) {
  return <TenantScreen appId={appId} tenant={tenant} heading={`Domains of ${tenant.name}`} may={may} TenantView={TenantDomains} />;
}

/** The application's custom domains and, while authentication is isolated, a tenant's own through the picker. */
export function Domains({ appId, may }: { appId: string; may: MayDo }) {
  return <TenantScopedSection appId={appId} may={may} heading="Domains" features={[AUTHENTICATION]} ApplicationView={ApplicationDomains} TenantView={TenantDomains} />;
}
