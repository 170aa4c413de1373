import { useCallback, useId } from 'react';
import { useAsync } from '../hooks/use-async.ts';
import { useFocusOnOpen } from '../hooks/use-focus-on-open.ts';
import { usePages, type Pages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { scopeIn, type NamedTenant, type SettingsScope } from '../operations.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import { getRoleChoices, getTenantRoleChoices, listRoleAssignments, type RoleAssignment, type RoleChoices, type RoleSubject } from '../operations-roles.ts';
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
  /** Acting in this tenant's scope: its roles and assignments alone, given there. Absent: the application's. */
  tenant?: NamedTenant;
  /** What the operator holds there, which decides the actions offered. */
  may: MayDo;
  onClose: () => void;
}

interface AssignmentsProps {
  scope: SettingsScope;
  assignments: Pages<RoleAssignment>;
  label: string;
  choices: RoleChoices;
  removable: boolean;
}

/** The roles a subject holds, application-wide and per tenant, each with Remove. */
function Assignments({ scope, assignments, label, choices, removable }: AssignmentsProps) {
  return (
    <PagedTable
      pages={assignments}
      columns={['Role', 'Where']}
      actionsHeading={removable ? 'Actions' : undefined}
      emptyMessage={`${label} holds no role.`}
      loadingLabel="Loading the roles held…"
      row={(assignment) => {
        const role = roleName(choices, assignment.roleId);
        const place = placeName(choices, assignment.tenantId);
        return (
          <tr key={assignment.id}>
            <th scope="row">{role}</th>
            <td>{place}</td>
            {removable && (
              <td>
                <RemoveAssignmentButton
                  scope={scope}
                  assignmentId={assignment.id}
                  question={`Remove ${label}'s role ${role} (${place})? The permissions it gives there are lost.`}
                  onRemoved={() => assignments.drop(assignment.id)}
                />
              </td>
            )}
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
export function SubjectRoles({ appId, subject, label, tenantIds, tenant, may, onClose }: SubjectRolesProps) {
  const headingId = useId();
  const focusOnOpen = useFocusOnOpen();
  const choices = useAsync(useCallback(() => (tenant === undefined ? getRoleChoices(appId, may) : getTenantRoleChoices(appId, tenant)), [appId, tenant, may]));
  useReadOnReturn(choices);
  const scope = scopeIn(appId, tenant ?? null);
  const assignments = usePages(
    useCallback(
      (cursor: string | null) => listRoleAssignments(scopeIn(appId, tenant ?? null), { subjectType: subject.type, subjectId: subject.id }, cursor),
      [appId, tenant, subject.type, subject.id],
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
          <Assignments scope={scope} assignments={assignments} label={label} choices={choices.data} removable={may('role_assignments:delete')} />
          {may('role_assignments:write') && (
            <AssignRoleForm
              scope={scope}
              subject={subject}
              label={label}
              choices={choices.data}
              // Held anywhere: every tenant, found by the picker's search rather than listed whole.
              tenants={tenantIds === undefined && tenant === undefined ? undefined : grantTenants(choices.data, tenantIds)}
              onAssigned={assignments.add}
              may={may}
            />
          )}
        </>
      )}
      <button type="button" onClick={onClose}>Close</button>
    </section>
  );
}
