import { useCallback, useState } from 'react';
import { PageFooter } from '../components/page-footer.tsx';
import { Timestamp } from '../components/timestamp.tsx';
import { usePages } from '../hooks/use-pages.ts';
import { listUsers, type User, type UserStatus } from '../operations.ts';
import { UserRoles } from './user-roles.tsx';

const STATUS_LABEL: Record<UserStatus, string> = { active: 'Active', suspended: 'Suspended', locked: 'Locked' };

/** The application's users, page by page, and the roles of the one chosen in a panel under them. */
export function Users({ appId }: { appId: string }) {
  const users = usePages(useCallback((cursor: string | null) => listUsers(appId, cursor), [appId]));
  const [chosen, setChosen] = useState<User | null>(null);
  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">Users</h2>
      {!users.loading && users.error === null && users.items.length === 0 ? (
        <p>This application has no users yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col"><span className="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {users.items.map((user) => (
              <tr key={user.id}>
                <th scope="row">{user.email}</th>
                <td>{user.name ?? ''}</td>
                <td>{STATUS_LABEL[user.status]}</td>
                <td><Timestamp value={user.createdAt} /></td>
                <td>
                  <button type="button" className="small" aria-pressed={chosen?.id === user.id} onClick={() => setChosen(user)}>
                    Roles<span className="visually-hidden">{` of ${user.email}`}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PageFooter pages={users} loadingLabel="Loading users…" />
      {chosen !== null && <UserRoles key={chosen.id} appId={appId} user={chosen} onClose={() => setChosen(null)} />}
    </section>
  );
}
