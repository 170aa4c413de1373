import { useId, type FormEvent } from 'react';
import { DraftNotes } from '../components/draft-notes.tsx';
import { firstGrant, RoleGrantFields } from '../components/role-grant-fields.tsx';
import { Outcome } from '../components/status.tsx';
import { useNewDraft } from '../hooks/use-draft.ts';
import { RefusedField, refusalMarks } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { addOperator, type OperatorAssignment } from '../operations-operators.ts';
import type { RoleChoices } from '../operations-roles.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import { placeName, roleName } from '../role-choices.ts';

interface AddOperatorFormProps {
  appId: string;
  choices: RoleChoices;
  onAdded: (assignment: OperatorAssignment) => void;
  may: MayDo;
}

/** "Add operator": an e-mail, a role and, in a multi-tenant application, where it holds ("All tenants" or one tenant). */
export function AddOperatorForm({ appId, choices, onAdded, may }: AddOperatorFormProps) {
  const [draft, setDraft, startAgain, sync] = useNewDraft({ email: '', grant: firstGrant(choices) }, { name: 'new-operator' });
  const { email, grant } = draft;
  const submission = useSubmission<string>();
  const id = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const address = email.trim();
    submission.run(async () => {
      const assignment = await addOperator(appId, address, grant);
      // The role and tenant stay chosen for the next operator.
      startAgain({ email: '', grant });
      onAdded(assignment);
      return `${address} is now ${roleName(choices, grant.roleId)} (${placeName(choices, grant.tenantId)}).`;
    });
  };

  return (
    <section aria-labelledby="add-operator-heading">
      <h2 id="add-operator-heading">Add an operator</h2>
      <form className="inline-form" onSubmit={submit}>
        <DraftNotes sync={sync} what="new operator" />
        <div>
          <label htmlFor={`${id}-email`}>E-mail</label>
          <input id={`${id}-email`} type="email" required {...refusalMarks(submission.refusal, 'email')} value={email} onChange={(event) => setDraft({ ...draft, email: event.target.value })} />
        </div>
        <RefusedField value={submission.refusal}>
          <RoleGrantFields choices={choices} appId={appId} grant={grant} onChange={(chosen) => setDraft({ ...draft, grant: chosen })} may={may} />
        </RefusedField>
        <button type="submit" className="primary" disabled={submission.busy}>Add operator</button>
      </form>
      <p className="hint">
        An address without an operator account gets one, without a password: they set it through “Forgot your password?”
        on the dashboard’s sign-in page.
      </p>
      <Outcome outcome={submission.outcome} />
    </section>
  );
}
