import { useCallback, useId, useState, type FormEvent } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { ErrorMessage } from '../components/status.tsx';
import { errorMessage } from '../error-message.ts';
import { usePages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { findUserIds, listSessions, listUsersSessions } from '../operations-sessions.ts';
import { SessionRow } from './session-row.tsx';

/**
 * The sessions shown: one address's users' (several where tenants have their own pools; none when no user has it), or
 * everyone's when null.
 */
interface UserFilter {
  readonly email: string;
  readonly userIds: readonly string[];
}

/** The sessions of the filter, page by page; a revoked one leaves the list (with its browser's others when it was the application's), `onRevoked` told the sentence that says so. */
function SessionTable({ appId, filter, onRevoked }: { appId: string; filter: UserFilter | null; onRevoked: (notice: string) => void }) {
  const sessions = usePages(
    useCallback((cursor: string | null) => (filter === null ? listSessions(appId, cursor) : listUsersSessions(appId, filter.userIds, cursor)), [appId, filter]),
  );
  useReadOnReturn(sessions);
  return (
    <PagedTable
      pages={sessions}
      columns={['User', 'Tenant', 'Client', 'Methods', 'Address', 'User agent', 'Signed in', 'Last active', 'Expires']}
      actionsHeading="Actions"
      emptyMessage={filter === null ? 'No one is signed in to this application.' : `${filter.email} has no live session.`}
      loadingLabel="Loading sessions…"
      row={(session) => (
        <SessionRow
          key={session.id}
          appId={appId}
          session={session}
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

/** "Filter by user": an address, looked up among the application's users; an empty one shows everyone's sessions. */
function UserFilterForm({ appId, onFilter }: { appId: string; onFilter: (filter: UserFilter | null) => void }) {
  const [email, setEmail] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const id = useId();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const address = email.trim();
    if (address === '') return onFilter(null);
    try {
      const userIds = await findUserIds(appId, address);
      if (userIds.length === 0) setFailure(`No user of this application has the address ${address}.`);
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

/** The application's live sessions, page by page, or one user's; each may be revoked. */
export function Sessions({ appId }: { appId: string }) {
  const [filter, setFilter] = useState<UserFilter | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const filtered = (next: UserFilter | null) => {
    setNotice(null);
    setFilter(next);
  };
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
      <UserFilterForm appId={appId} onFilter={filtered} />
      {notice !== null && <p role="status">{notice}</p>}
      {/* The form says why none matches. */}
      {(filter === null || filter.userIds.length > 0) && <SessionTable appId={appId} filter={filter} onRevoked={setNotice} />}
    </section>
  );
}
