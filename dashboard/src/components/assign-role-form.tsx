import { useState, type FormEvent } from 'react';
import { errorMessage } from '../error-message.ts';
import type { TenantSummary } from '../operations.ts';
import { assignRole, type RoleAssignment, type RoleChoices, type RoleSubject } from '../operations-roles.ts';
import { placeName, roleName } from '../role-choices.ts';
import { firstGrant, RoleGrantFields } from './role-grant-fields.tsx';
import { ErrorMessage } from './status.tsx';

interface AssignRoleFormProps {
  appId: string;
  subject: RoleSubject;
  /** How the subject is named to the operator: a user's address, a key's or credential's name. */
  label: string;
  choices: RoleChoices;
  /** The tenants offered besides "All tenants". */
  tenants: readonly TenantSummary[];
  onAssigned: (assignment: RoleAssignment) => void;
}

type Outcome = { readonly assigned: string } | { readonly refused: string };

/** "Assign role" to a subject: in every tenant, or in one of `tenants` in a multi-tenant application. */
export function AssignRoleForm({ appId, subject, label, choices, tenants, onAssigned }: AssignRoleFormProps) {
  const [grant, setGrant] = useState(() => firstGrant(choices));
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      const assignment = await assignRole(appId, subject, grant);
      setOutcome({ assigned: `${label} now holds ${roleName(choices, grant.roleId)} (${placeName(choices, grant.tenantId)}).` });
      onAssigned(assignment);
    } catch (error) {
      setOutcome({ refused: errorMessage(error) });
    }
    setBusy(false);
  };

  return (
    <>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <RoleGrantFields choices={choices} tenants={tenants} grant={grant} onChange={setGrant} />
        <button type="submit" className="primary" disabled={busy}>Assign role</button>
      </form>
      {outcome !== null && ('assigned' in outcome ? <p role="status">{outcome.assigned}</p> : <ErrorMessage message={outcome.refused} />)}
    </>
  );
}
