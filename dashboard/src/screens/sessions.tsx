import { useCallback, useId, useMemo, useState, type FormEvent } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { ErrorMessage } from '../components/status.tsx';
import { errorMessage } from '../error-message.ts';
import { usePages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import type { NamedTenant } from '../operations.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import { findUserIds, listSessions, listUsersSessions, type SessionsPlace } from '../operations-sessions.ts';
import { SessionRow } from './session-row.tsx';

/**
 * The sessions shown: one address's users' (several where tenants have their own pools; none when no user has it), or
 * everyone's when null.
 */
interface UserFilter {
  readonly email: string;
  readonly userIds: readonly string[];
}

interface SessionTableProps {
  place: SessionsPlace;
  filter: UserFilter | null;
  revocable: boolean;
  onRevoked: (notice: string) => void;
}

const TENANT_COLUMNS = ['User', 'Client', 'Methods', 'Address', 'User agent', 'Signed in', 'Last active', 'Expires'];
// A tenant's place lists its own sign-ins only, so a Tenant column would name it on every row.
const APPLICATION_COLUMNS = ['User', 'Tenant', ...TENANT_COLUMNS.slice(1)];

/** The sessions of the filter, page by page; a revoked one leaves the list (with its browser's others when it was the application's), `onRevoked` told the sentence that says so. */
function SessionTable({ place, filter, revocable, onRevoked }: SessionTableProps) {
  const sessions = usePages(
    useCallback((cursor: string | null) => (filter === null ? listSessions(place, cursor) : listUsersSessions(place, filter.userIds, cursor)), [place, filter]),
  );
  useReadOnReturn(sessions);
  const where = place.tenant === null ? 'this application' : place.tenant.name;
  return (
    <PagedTable
      pages={sessions}
      columns={place.tenant === null ? APPLICATION_COLUMNS : TENANT_COLUMNS}
      actionsHeading={revocable ? 'Actions' : undefined}
      emptyMessage={filter === null ? `No one is signed in to ${where}.` : `${filter.email} has no live session.`}
      loadingLabel="Loading sessions…"
      row={(session) => (
        <SessionRow
          key={session.id}
          place={place}
          session={session}
          revocable={revocable}
          onRevoked={(notice, wholeBrowser) => {
            // The browser's other rows ended too, which the client cannot tell apart: the pages shown are read again.
            if (wholeBrowser) sessions.refresh();
            else sessions.drop(session.id);
            onRevoked(notice);
          }}
        />
      )}
    />
  );
}

/** "Filter by user": an address, looked up among the place's users; an empty one shows everyone's sessions. */
function UserFilterForm({ place, onFilter }: { place: SessionsPlace; onFilter: (filter: UserFilter | null) => void }) {
  const [email, setEmail] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const id = useId();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const address = email.trim();
    if (address === '') return onFilter(null);
    try {
      const userIds = await findUserIds(place, address);
      if (userIds.length === 0) setFailure(place.tenant === null ? `No user of this application has the address ${address}.` : `No member of ${place.tenant.name} has the address ${address}.`);
      onFilter({ email: address, userIds });
    } catch (error) {
      setFailure(errorMessage(error));
      onFilter({ email: address, userIds: [] });
    }
  };

  return (
    <>
      <form className="inline-form session-filter" role="search" onSubmit={(event) => void submit(event)}>
        <div>
          <label htmlFor={`${id}-email`}>User's e-mail</label>
          <input id={`${id}-email`} type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
        </div>
        <button type="submit">Filter</button>
      </form>
      {failure !== null && <ErrorMessage message={failure} />}
    </>
  );
}

/** The place's live sessions, page by page, or one user's; each may be revoked where the operator may. */
function SessionsSection({ place, may }: { place: SessionsPlace; may: MayDo }) {
  const headingId = useId();
  const [filter, setFilter] = useState<UserFilter | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const filtered = (next: UserFilter | null) => {
    setNotice(null);
    setFilter(next);
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{place.tenant === null ? 'Sessions' : `Sessions of ${place.tenant.name}`}</h2>
      <UserFilterForm place={place} onFilter={filtered} />
      {notice !== null && <p role="status">{notice}</p>}
      {/* The form says why none matches. */}
      {(filter === null || filter.userIds.length > 0) && <SessionTable place={place} filter={filter} revocable={may('sessions:delete')} onRevoked={setNotice} />}
    </section>
  );
}

/** The application's live sessions (Sessions tab), for an operator holding a role application-wide: Revoke as `may` allows. */
export function Sessions({ appId, may }: { appId: string; may: MayDo }) {
  const place = useMemo(() => ({ appId, tenant: null }), [appId]);
  return <SessionsSection place={place} may={may} />;
}

/** One tenant's sign-ins in its scope, for an operator of some tenants only; Revoke as their permissions there allow. */
export function TenantSessions({ appId, tenant, may }: { appId: string; tenant: NamedTenant; may: MayDo }) {
  const { id, name } = tenant;
  const place = useMemo(() => ({ appId, tenant: { id, name } }), [appId, id, name]);
  return <SessionsSection place={place} may={may} />;
}
