import type { FormEvent } from 'react';
import { useNewDraft } from '../hooks/use-draft.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import type { NamedTenant, SettingsScope } from '../operations.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import { assignRole, type RoleAssignment, type RoleChoices, type RoleSubject } from '../operations-roles.ts';
import { placeName, roleName } from '../role-choices.ts';
import { DraftNotes } from './draft-notes.tsx';
import { firstGrant, RoleGrantFields } from './role-grant-fields.tsx';
import { Outcome } from './status.tsx';

interface AssignRoleFormProps {
  /** In a tenant's scope the role is given in that tenant alone. */
  scope: SettingsScope;
  subject: RoleSubject;
  /** How the subject is named to the operator: a user's address, a key's or credential's name. */
  label: string;
  choices: RoleChoices;
  /**
   * The tenants offered besides "All tenants" (the scope's alone in a tenant's scope, without "All tenants"); absent:
   * every tenant, through the searching tenant picker.
   */
  tenants?: readonly NamedTenant[];
  onAssigned: (assignment: RoleAssignment) => void;
  may: MayDo;
}

/** "Assign role" to a subject: in every tenant, or in one of `tenants` in a multi-tenant application. */
export function AssignRoleForm({ scope, subject, label, choices, tenants, onAssigned, may }: AssignRoleFormProps) {
  const [grant, setGrant, startAgain, sync] = useNewDraft(firstGrant(choices, scope.tenantId), { name: `grant:${subject.type}:${subject.id}` });
  const submission = useSubmission<string>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submission.run(async () => {
      const assignment = await assignRole(scope, subject, grant);
      // The grant stays chosen, as made.
      startAgain(grant);
      onAssigned(assignment);
      return `${label} now holds ${roleName(choices, grant.roleId)} (${placeName(choices, grant.tenantId)}).`;
    });
  };

  return (
    <>
      <form className="inline-form" onSubmit={submit}>
        <DraftNotes sync={sync} what="role to assign" />
        <RefusedField value={submission.refusal}>
          <RoleGrantFields choices={choices} tenants={tenants} appId={scope.appId} everyTenant={scope.tenantId === null} grant={grant} onChange={setGrant} may={may} />
        </RefusedField>
        <button type="submit" className="primary" disabled={submission.busy}>Assign role</button>
      </form>
      <Outcome outcome={submission.outcome} />
    </>
  );
}
