import { useId, useState, type FormEvent } from 'react';
import { firstGrant, RoleGrantFields } from '../components/role-grant-fields.tsx';
import { ErrorMessage } from '../components/status.tsx';
import { errorMessage } from '../error-message.ts';
import { addOperator, type OperatorAssignment } from '../operations-operators.ts';
import type { RoleChoices } from '../operations-roles.ts';
import { placeName, roleName } from '../role-choices.ts';

interface AddOperatorFormProps {
  appId: string;
  choices: RoleChoices;
  onAdded: (assignment: OperatorAssignment) => void;
}

type Outcome = { readonly added: string } | { readonly refused: string };

/** "Add operator": an e-mail, a role and, in a multi-tenant application, where it holds ("All tenants" or one tenant). */
export function AddOperatorForm({ appId, choices, onAdded }: AddOperatorFormProps) {
  const [email, setEmail] = useState('');
  const [grant, setGrant] = useState(() => firstGrant(choices));
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const id = useId();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    const address = email.trim();
    try {
      const assignment = await addOperator(appId, address, grant);
      setOutcome({ added: `${address} is now ${roleName(choices, grant.roleId)} (${placeName(choices, grant.tenantId)}).` });
      setEmail('');
      onAdded(assignment);
    } catch (error) {
      setOutcome({ refused: errorMessage(error) });
    }
    setBusy(false);
  };

  return (
    <section aria-labelledby="add-operator-heading">
      <h2 id="add-operator-heading">Add an operator</h2>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <div>
          <label htmlFor={`${id}-email`}>E-mail</label>
          <input id={`${id}-email`} type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </div>
        <RoleGrantFields choices={choices} tenants={choices.tenants} grant={grant} onChange={setGrant} />
        <button type="submit" className="primary" disabled={busy}>Add operator</button>
      </form>
      <p className="hint">
        An address without an operator account gets one, without a password: they set it through “Forgot your password?”
        on the dashboard’s sign-in page.
      </p>
      {outcome !== null && ('added' in outcome ? <p role="status">{outcome.added}</p> : <ErrorMessage message={outcome.refused} />)}
    </section>
  );
}
