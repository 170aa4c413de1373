import { useId, useState, type FormEvent } from 'react';
import { ErrorMessage } from '../components/status.tsx';
import { errorMessage } from '../error-message.ts';
import { placeName, roleName } from '../operator-names.ts';
import { addOperator, type OperatorChoices } from '../operations-operators.ts';

interface AddOperatorFormProps {
  appId: string;
  choices: OperatorChoices;
  onAdded: () => void;
}

type Outcome = { readonly added: string } | { readonly refused: string };

/** "Add operator": an e-mail, a role and, in a multi-tenant application, where it holds ("All tenants" or one tenant). */
export function AddOperatorForm({ appId, choices, onAdded }: AddOperatorFormProps) {
  const [email, setEmail] = useState('');
  const [roleId, setRoleId] = useState(choices.roles[0]?.id ?? '');
  const [tenantId, setTenantId] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const id = useId();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    const grant = { email: email.trim(), roleId, tenantId: tenantId === '' ? null : tenantId };
    try {
      await addOperator(appId, grant);
      setOutcome({ added: `${grant.email} is now ${roleName(choices, roleId)} (${placeName(choices, grant.tenantId)}).` });
      setEmail('');
      onAdded();
    } catch (error) {
      setOutcome({ refused: errorMessage(error) });
    }
    setBusy(false);
  };

  return (
    <section aria-labelledby="add-operator-heading">
      <h2 id="add-operator-heading">Add an operator</h2>
      <form className="operator-form" onSubmit={(event) => void submit(event)}>
        <div>
          <label htmlFor={`${id}-email`}>E-mail</label>
          <input id={`${id}-email`} type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </div>
        <div>
          <label htmlFor={`${id}-role`}>Role</label>
          <select id={`${id}-role`} value={roleId} onChange={(event) => setRoleId(event.target.value)}>
            {choices.roles.map((role) => <option key={role.id} value={role.id}>{role.name}</option>)}
          </select>
        </div>
        {choices.multiTenant && (
          <div>
            <label htmlFor={`${id}-tenant`}>Tenant</label>
            <select id={`${id}-tenant`} value={tenantId} onChange={(event) => setTenantId(event.target.value)}>
              <option value="">All tenants</option>
              {choices.tenants.map((tenant) => <option key={tenant.id} value={tenant.id}>{tenant.name}</option>)}
            </select>
          </div>
        )}
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
