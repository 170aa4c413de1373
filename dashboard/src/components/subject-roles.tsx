import { useCallback, useId } from 'react';
import { useAsync } from '../hooks/use-async.ts';
import { useFocusOnOpen } from '../hooks/use-focus-on-open.ts';
import { usePages, type Pages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { getRoleChoices, listRoleAssignments, type RoleAssignment, type RoleChoices, type RoleSubject } from '../operations-roles.ts';
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
  assignments: Pages<RoleAssignment>;
  label: string;
  choices: RoleChoices;
}

/** The roles a subject holds, application-wide and per tenant, each with Remove. */
function Assignments({ appId, assignments, label, choices }: AssignmentsProps) {
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
                onRemoved={() => assignments.drop(assignment.id)}
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
  useReadOnReturn(choices);
  const assignments = usePages(
    useCallback(
      (cursor: string | null) => listRoleAssignments(appId, { subjectType: subject.type, subjectId: subject.id }, cursor),
      [appId, subject.type, subject.id],
    ),
  );
  useReadOnReturn(assignments);
  return (
    <section aria-labelledby={headingId} className="panel">
      <h3 id={headingId} ref={focusOnOpen} tabIndex={-1}>{`Roles of ${label}`}</h3>
      {choices.status === 'loading' && <Loading>Loading the roles…</Loading>}
      {choices.status === 'failed' && <ErrorMessage message={choices.message} />}
      {choices.status === 'done' && (
        <>
          <Assignments appId={appId} assignments={assignments} label={label} choices={choices.data} />
          <AssignRoleForm
            appId={appId}
            subject={subject}
            label={label}
            choices={choices.data}
            tenants={grantTenants(choices.data, tenantIds)}
            onAssigned={assignments.add}
          />
        </>
      )}
      <button type="button" onClick={onClose}>Close</button>
    </section>
  );
}
