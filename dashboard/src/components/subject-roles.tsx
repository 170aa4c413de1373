import { useCallback, useId, useState } from 'react';
import { useAsync } from '../hooks/use-async.ts';
import { useFocusOnOpen } from '../hooks/use-focus-on-open.ts';
import { usePages } from '../hooks/use-pages.ts';
import { getRoleChoices, listRoleAssignments, type RoleChoices, type RoleSubject } from '../operations-roles.ts';
import { grantTenants, placeName, roleName } from '../role-choices.ts';
import { AssignRoleForm } from './assign-role-form.tsx';
import { PagedTable } from './paged-table.tsx';
import { RemoveAssignmentButton } from './remove-assignment-button.tsx';
import { ErrorMessage, Loading } from './status.tsx';

interface SubjectRolesProps {
  appId: string;
  /** A user, an M2M credential or an API key. */
  subject: RoleSubject;
  /** How the subject is named to the operator: a user's address, a key's or credential's name. */
  label: string;
  /** The tenants in which the subject can hold a role (a user's, a tenant key's own); absent: every tenant. */
  tenantIds?: readonly string[];
  onClose: () => void;
}

interface AssignmentsProps {
  appId: string;
  subject: RoleSubject;
  label: string;
  choices: RoleChoices;
  onRemoved: () => void;
}

/** The roles a subject holds, application-wide and per tenant, each with Remove. */
function Assignments({ appId, subject, label, choices, onRemoved }: AssignmentsProps) {
  const loadPage = useCallback(
    (cursor: string | null) => listRoleAssignments(appId, { subjectType: subject.type, subjectId: subject.id }, cursor),
    [appId, subject.type, subject.id],
  );
  const assignments = usePages(loadPage);
  return (
    <PagedTable
      pages={assignments}
      columns={['Role', 'Where']}
      actionsHeading="Actions"
      emptyMessage={`${label} holds no role.`}
      loadingLabel="Loading the roles held…"
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
                question={`Remove ${label}'s role ${role} (${place})? The permissions it gives there are lost.`}
                onRemoved={onRemoved}
              />
            </td>
          </tr>
        );
      }}
    />
  );
}

/**
 * The panel of one subject's roles under a table (users, M2M credentials, API keys): what it holds, giving it a role
 * and removing one. The server refuses a role the operator may not give; its message shows.
 */
export function SubjectRoles({ appId, subject, label, tenantIds, onClose }: SubjectRolesProps) {
  const headingId = useId();
  const focusOnOpen = useFocusOnOpen();
  const choices = useAsync(useCallback(() => getRoleChoices(appId), [appId]));
  const [changes, setChanges] = useState(0);
  const changed = () => setChanges((count) => count + 1);
  return (
    <section aria-labelledby={headingId} className="panel">
      <h3 id={headingId} ref={focusOnOpen} tabIndex={-1}>{`Roles of ${label}`}</h3>
      {choices.status === 'loading' && <Loading>Loading the roles…</Loading>}
      {choices.status === 'failed' && <ErrorMessage message={choices.message} />}
      {choices.status === 'done' && (
        <>
          {/* Read again after each change. */}
          <Assignments key={changes} appId={appId} subject={subject} label={label} choices={choices.data} onRemoved={changed} />
          <AssignRoleForm
            appId={appId}
            subject={subject}
            label={label}
            choices={choices.data}
            tenants={grantTenants(choices.data, tenantIds)}
            onAssigned={changed}
          />
        </>
      )}
      <button type="button" onClick={onClose}>Close</button>
    </section>
  );
}
