import type { FormEvent } from 'react';
import { useDraft } from '../hooks/use-draft.ts';
import type { Policies, PolicyKind } from '../operations-email-auth.ts';
import { POLICY_FORMS } from '../policy-fields.ts';
import { draftOf, valuesOf, type SettingValues } from '../setting-fields.ts';
import { DraftNotes } from './draft-notes.tsx';
import { SettingInputs } from './setting-inputs.tsx';

interface PolicyFormProps {
  kind: PolicyKind;
  /** The policy in force in the scope: the form starts from it. */
  policy: Policies[PolicyKind];
  saving: boolean;
  /** Saves the values; `saved` is called once the server took them, before the policy is read again. */
  onSave: (input: SettingValues, saved: () => void) => void;
}

/** Every field of one policy, saved as a whole (the API replaces a policy, a field left out taking its default). */
export function PolicyForm({ kind, policy, saving, onSave }: PolicyFormProps) {
  const { fields } = POLICY_FORMS[kind];
  const [draft, setDraft, sync] = useDraft(draftOf(fields, policy), { keep: { name: `policy:${kind}` } });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSave(valuesOf(fields, draft), sync.saved);
  };
  return (
    // noValidate: the server judges the values, and its refusal is the message shown.
    <form className="stacked-form auth-form" noValidate onSubmit={submit}>
      <DraftNotes sync={sync} what="policy" />
      <SettingInputs fields={fields} draft={draft} onChange={setDraft} />
      <div className="actions">
        <button type="submit" className="primary" disabled={saving}>Save policy</button>
      </div>
    </form>
  );
}
