import { useCallback, useId, useState } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { RemoveAssignmentButton } from '../components/remove-assignment-button.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useFocusOnOpen } from '../hooks/use-focus-on-open.ts';
import { usePages } from '../hooks/use-pages.ts';
import type { User } from '../operations.ts';
import { getRoleChoices, listRoleAssignments, type RoleChoices } from '../operations-roles.ts';
import { placeName, roleName } from '../role-choices.ts';
import { AssignRoleForm } from './assign-role-form.tsx';

interface UserAssignmentsProps {
  appId: string;
  user: User;
  choices: RoleChoices;
  onRemoved: () => void;
}

/** The roles a user holds, application-wide and per tenant, each with Remove. */
function UserAssignments({ appId, user, choices, onRemoved }: UserAssignmentsProps) {
  const loadPage = useCallback(
    (cursor: string | null) => listRoleAssignments(appId, { subjectType: 'user', subjectId: user.id }, cursor),
    [appId, user.id],
  );
  const assignments = usePages(loadPage);
  return (
    <PagedTable
      pages={assignments}
      columns={['Role', 'Where']}
      actionsHeading="Actions"
      emptyMessage={`${user.email} holds no role.`}
      loadingLabel="Loading the user's roles…"
      row={(assignment) => {
        const role = roleName(choices, assignment.roleId);
        const place = placeName(choices, assignment.tenantId);
        return (
          <tr key={assignment.id}>
            <th scope="row">{role}</th>
            <td>{place}</td>
            <td>
              <RemoveAssignmentButton
                appId={appId}
                assignmentId={assignment.id}
                question={`Remove ${user.email}'s role ${role} (${place})? They lose its permissions there.`}
                onRemoved={onRemoved}
              />
            </td>
          </tr>
        );
      }}
    />
  );
}

/** The panel of one user's roles under the users table: what they hold, giving them a role, and removing one. */
export function UserRoles({ appId, user, onClose }: { appId: string; user: User; onClose: () => void }) {
  const headingId = useId();
  const focusOnOpen = useFocusOnOpen();
  const choices = useAsync(useCallback(() => getRoleChoices(appId), [appId]));
  const [changes, setChanges] = useState(0);
  const changed = () => setChanges((count) => count + 1);
  return (
    <section aria-labelledby={headingId} className="panel">
      <h3 id={headingId} ref={focusOnOpen} tabIndex={-1}>{`Roles of ${user.email}`}</h3>
      {choices.status === 'loading' && <Loading>Loading the roles…</Loading>}
      {choices.status === 'failed' && <ErrorMessage message={choices.message} />}
      {choices.status === 'done' && (
        <>
          {/* Read again after each change. */}
          <UserAssignments key={changes} appId={appId} user={user} choices={choices.data} onRemoved={changed} />
          <AssignRoleForm appId={appId} user={user} choices={choices.data} onAssigned={changed} />
        </>
      )}
      <button type="button" onClick={onClose}>Close</button>
    </section>
  );
}
