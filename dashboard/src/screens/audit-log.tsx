import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { TenantsNeeded } from '../components/tenants-needed.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { usePages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { listAuditRecords, type AuditFilter } from '../operations-audit.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import { listAllTenants } from '../operations-tenant-choices.ts';
import { scopeIn, type NamedTenant, type SettingsScope } from '../operations.ts';
import { AuditLive } from './audit-live.tsx';
import { AuditRow } from './audit-row.tsx';
import { AuditSearchForm, type AuditSearch } from './audit-search-form.tsx';

interface AuditResultsProps {
  place: SettingsScope;
  /** Whether records have a Tenant column. */
  multiTenant: boolean;
  filter: AuditFilter;
  /** The first page, when the search read it as it was submitted. */
  first?: AuditSearch['first'];
  following: boolean;
}

/** One search's records, newest first, page by page; while following, the new ones on top as they commit. */
function AuditResults({ place, multiTenant, filter, first, following }: AuditResultsProps) {
  // The search's own first page serves the first read only: a refresh reads the records as they are now.
  const unread = useRef(first);
  const records = usePages(
    useCallback(
      (cursor: string | null) => {
        const searched = cursor === null ? unread.current : undefined;
        unread.current = undefined;
        return searched !== undefined ? Promise.resolve(searched) : listAuditRecords(place, filter, cursor);
      },
      [place, filter],
    ),
  );
  // While following, the stream brings each new record; a read besides could drop one it prepended meanwhile.
  useReadOnReturn(records, !following);
  const firstPageRead = records.items.length > 0 || (!records.loading && records.error === null);
  const headings = ['Time', 'Action', 'Actor', 'Target', ...(multiTenant ? ['Tenant'] : [])];
  // A record's expanded details span the whole row: the headings' columns and Details.
  const columns = headings.length + 1;
  return (
    <>
      {following && firstPageRead && <AuditLive place={place} filter={filter} newest={records.items[0]?.id ?? null} onRecord={records.prepend} />}
      <PagedTable
        pages={records}
        columns={headings}
        actionsHeading="Details"
        emptyMessage="No audit record matches."
        loadingLabel="Loading audit records…"
        row={(record) => <AuditRow key={record.id} record={record} multiTenant={multiTenant} columns={columns} />}
      />
    </>
  );
}

interface AuditLogViewProps {
  place: SettingsScope;
  heading: string;
  /** Whether records have a Tenant column, and the search says what a Tenant filter takes when it has none. */
  multiTenant: boolean;
  /** The Tenant filter's choices (none: no filter). */
  tenants: readonly NamedTenant[];
  may: MayDo;
}

/** A place's audit records: searched with the API's filters, and followed live. */
function AuditLogView({ place, heading, multiTenant, tenants, may }: AuditLogViewProps) {
  // Null once a search is refused: the records of an earlier one would pass for its answer.
  const [search, setSearch] = useState<{ readonly filter: AuditFilter; readonly first?: AuditSearch['first']; readonly count: number } | null>({
    filter: {},
    count: 0,
  });
  const count = useRef(0);
  const [following, setFollowing] = useState(false);
  const followId = useId();
  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading">{heading}</h2>
      <AuditSearchForm place={place} tenants={tenants} byAddress={may('users:read')} onSearch={(next) => setSearch(next && { ...next, count: ++count.current })} />
      {multiTenant && <TenantsNeeded may={may} action="Searching one tenant's records" />}
      <div className="follow">
        <input id={followId} type="checkbox" checked={following} onChange={(event) => setFollowing(event.target.checked)} />
        <label htmlFor={followId}>Follow live</label>
      </div>
      {/* Each search starts afresh: its pages, and a stream that resumes after its own newest record. */}
      {search !== null && (
        <AuditResults key={search.count} place={place} multiTenant={multiTenant} filter={search.filter} first={search.first} following={following} />
      )}
    </section>
  );
}

/** The application's audit records (Audit log tab), searched by tenant too where the tenants may be listed. */
export function AuditLog({ appId, multiTenant, may }: { appId: string; multiTenant: boolean; may: MayDo }) {
  const place = useMemo(() => scopeIn(appId, null), [appId]);
  const tenants = useAsync(useCallback(() => (multiTenant ? listAllTenants(appId, may) : Promise.resolve([])), [appId, multiTenant, may]));
  useReadOnReturn(tenants);
  if (tenants.status === 'loading') return <Loading>Loading the audit log…</Loading>;
  if (tenants.status === 'failed') return <ErrorMessage message={tenants.message} />;
  return <AuditLogView place={place} heading="Audit log" multiTenant={multiTenant} tenants={tenants.data} may={may} />;
}

/** A tenant's own audit records, in its scope, for an operator of some tenants only. */
export function TenantAuditLog({ appId, tenant, may }: { appId: string; tenant: NamedTenant; may: MayDo }) {
  const { id, name } = tenant;
  const place = useMemo(() => scopeIn(appId, { id, name }), [appId, id, name]);
  return <AuditLogView place={place} heading={`Audit log of ${name}`} multiTenant={false} tenants={[]} may={may} />;
}
