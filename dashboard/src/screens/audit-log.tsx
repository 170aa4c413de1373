import { useCallback, useId, useRef, useState } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { usePages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { listAuditRecords, type AuditFilter } from '../operations-audit.ts';
import { getTenantChoices } from '../operations-tenant-choices.ts';
import { AuditLive } from './audit-live.tsx';
import { AuditRow } from './audit-row.tsx';
import { AuditSearchForm, type AuditSearch } from './audit-search-form.tsx';

interface AuditResultsProps {
  appId: string;
  /** Whether records have a Tenant column. */
  multiTenant: boolean;
  filter: AuditFilter;
  /** The first page, when the search read it as it was submitted. */
  first?: AuditSearch['first'];
  following: boolean;
}

/** One search's records, newest first, page by page; while following, the new ones on top as they commit. */
function AuditResults({ appId, multiTenant, filter, first, following }: AuditResultsProps) {
  // The search's own first page serves the first read only: a refresh reads the records as they are now.
  const unread = useRef(first);
  const records = usePages(
    useCallback(
      (cursor: string | null) => {
        const searched = cursor === null ? unread.current : undefined;
        unread.current = undefined;
        return searched !== undefined ? Promise.resolve(searched) : listAuditRecords(appId, filter, cursor);
      },
      [appId, filter],
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
      {following && firstPageRead && <AuditLive appId={appId} filter={filter} newest={records.items[0]?.id ?? null} onRecord={records.prepend} />}
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

/** The application's audit records: searched with the API's filters, and followed live. */
export function AuditLog({ appId }: { appId: string }) {
  const tenantChoices = useAsync(useCallback(() => getTenantChoices(appId), [appId]));
  useReadOnReturn(tenantChoices);
  // Null once a search is refused: the records of an earlier one would pass for its answer.
  const [search, setSearch] = useState<{ readonly filter: AuditFilter; readonly first?: AuditSearch['first']; readonly count: number } | null>({
    filter: {},
    count: 0,
  });
  const count = useRef(0);
  const [following, setFollowing] = useState(false);
  const followId = useId();

  if (tenantChoices.status === 'loading') return <Loading>Loading the audit log…</Loading>;
  if (tenantChoices.status === 'failed') return <ErrorMessage message={tenantChoices.message} />;
  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit log</h2>
      <AuditSearchForm appId={appId} tenants={tenantChoices.data.tenants} onSearch={(next) => setSearch(next && { ...next, count: ++count.current })} />
      <div className="follow">
        <input id={followId} type="checkbox" checked={following} onChange={(event) => setFollowing(event.target.checked)} />
        <label htmlFor={followId}>Follow live</label>
      </div>
      {/* Each search starts afresh: its pages, and a stream that resumes after its own newest record. */}
      {search !== null && (
        <AuditResults
          key={search.count}
          appId={appId}
          multiTenant={tenantChoices.data.multiTenant}
          filter={search.filter}
          first={search.first}
          following={following}
        />
      )}
    </section>
  );
}
