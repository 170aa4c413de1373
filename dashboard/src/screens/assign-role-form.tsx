import { useState, type FormEvent } from 'react';
import { firstGrant, RoleGrantFields } from '../components/role-grant-fields.tsx';
import { ErrorMessage } from '../components/status.tsx';
import { errorMessage } from '../error-message.ts';
import type { User } from '../operations.ts';
import { assignRole, type RoleChoices } from '../operations-roles.ts';
import { grantTenants, placeName, roleName } from '../role-choices.ts';

interface AssignRoleFormProps {
  appId: string;
  user: User;
  choices: RoleChoices;
  onAssigned: () => void;
}

type Outcome = { readonly assigned: string } | { readonly refused: string };

/** "Assign role" to a user: in every tenant, or in one of the user's tenants in a multi-tenant application. */
export function AssignRoleForm({ appId, user, choices, onAssigned }: AssignRoleFormProps) {
  const [grant, setGrant] = useState(() => firstGrant(choices));
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      await assignRole(appId, { type: 'user', id: user.id }, grant);
      setOutcome({ assigned: `${user.email} now holds ${roleName(choices, grant.roleId)} (${placeName(choices, grant.tenantId)}).` });
      onAssigned();
    } catch (error) {
      setOutcome({ refused: errorMessage(error) });
    }
    setBusy(false);
  };

  return (
    <>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <RoleGrantFields choices={choices} tenants={grantTenants(choices, user.tenantIds)} grant={grant} onChange={setGrant} />
        <button type="submit" className="primary" disabled={busy}>Assign role</button>
      </form>
      {outcome !== null && ('assigned' in outcome ? <p role="status">{outcome.assigned}</p> : <ErrorMessage message={outcome.refused} />)}
    </>
  );
}
