import { useCallback } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { usePages, type Pages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { listOperatorAssignments, type OperatorAssignment } from '../operations-operators.ts';
import { getRoleChoices, type RoleChoices } from '../operations-roles.ts';
import { AddOperatorForm } from './add-operator-form.tsx';
import type { ApplicationScreenProps } from './application.tsx';
import { OperatorRow } from './operator-row.tsx';

interface OperatorTableProps {
  appId: string;
  assignments: Pages<OperatorAssignment>;
  choices: RoleChoices;
  removable: boolean;
}

function OperatorTable({ appId, assignments, choices, removable }: OperatorTableProps) {
  return (
    <section aria-labelledby="operators-heading">
      <h2 id="operators-heading">Operators</h2>
      <PagedTable
        pages={assignments}
        columns={['E-mail', 'Role', 'Where']}
        actionsHeading={removable ? 'Actions' : undefined}
        emptyMessage="No operator holds a role in this application."
        loadingLabel="Loading operators…"
        row={(assignment) => (
          <OperatorRow key={assignment.id} appId={appId} assignment={assignment} choices={choices} removable={removable} onRemoved={() => assignments.drop(assignment.id)} />
        )}
      />
    </section>
  );
}

/**
 * The operators who hold roles in the application (the dashboard's users, from the console); adding one and removing a
 * role as the operator's permissions allow. Adding one finds or makes their account in the console, so it takes the
 * console's `users:read` and `users:write` besides the application's `role_assignments:write`.
 */
export function Operators({ appId, may, mayInConsole }: ApplicationScreenProps) {
  const choices = useAsync(useCallback(() => getRoleChoices(appId, may), [appId, may]));
  useReadOnReturn(choices);
  const assignments = usePages(useCallback((cursor: string | null) => listOperatorAssignments(appId, cursor), [appId]));
  useReadOnReturn(assignments);

  if (choices.status === 'loading') return <Loading>Loading the roles…</Loading>;
  if (choices.status === 'failed') return <ErrorMessage message={choices.message} />;
  return (
    <>
      <OperatorTable appId={appId} assignments={assignments} choices={choices.data} removable={may('role_assignments:delete')} />
      {may('role_assignments:write') &&
        (mayInConsole('users:read') && mayInConsole('users:write') ? (
          <AddOperatorForm appId={appId} choices={choices.data} onAdded={assignments.add} may={may} />
        ) : (
          <p className="hint">Adding an operator takes an administrator of the organization’s console, where the operators’ accounts are kept.</p>
        ))}
    </>
  );
}
