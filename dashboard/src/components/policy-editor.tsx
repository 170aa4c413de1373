import { useId } from 'react';
import { useKeptPlace } from '../hooks/use-kept.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { UnsavedParts, useUnsavedPart } from '../hooks/use-unsaved-changes.ts';
import { putPolicy } from '../operations-auth.ts';
import type { Policies, PolicyKind } from '../operations-email-auth.ts';
import type { SettingsScope } from '../operations.ts';
import { POLICY_FORMS, POLICY_KINDS } from '../policy-fields.ts';
import type { SettingValues } from '../setting-fields.ts';
import { PolicyForm } from './policy-form.tsx';
import { Outcome } from './status.tsx';
import { Subsection } from './subsection.tsx';

interface PolicyEditorProps {
  /** The application's, or a tenant's, whose save is its override of that policy. */
  scope: SettingsScope;
  policies: Policies;
  /** What the editor says first about saving in this scope. */
  hint?: string;
  /** Reads the policies again after a save, so the table (and a tenant's badge) shows it. */
  onSaved: () => Promise<void>;
}

/** "Change a policy": the policy to edit, then its form, which starts from the policy in force. */
export function PolicyEditor({ scope, policies, hint, onSaved }: PolicyEditorProps) {
  const id = useId();
  const [kind, setKind] = useKeptPlace<PolicyKind>('policy-kind', 'password');
  const saving = useSubmission<string>();
  const unsaved = useUnsavedPart();
  const save = (input: SettingValues, saved: () => void) =>
    saving.run(async () => {
      await putPolicy(scope, kind, input);
      saved();
      await onSaved();
      return `Saved the ${POLICY_FORMS[kind].label} policy.`;
    });
  const choose = unsaved.guard((next: PolicyKind) => {
    setKind(next);
    saving.clear();
  });
  const policy = policies[kind];
  return (
    <Subsection title="Change a policy">
      {hint !== undefined && <p className="hint">{hint}</p>}
      <div className="field policy-kind">
        <label htmlFor={`${id}-kind`}>Policy to edit</label>
        <select id={`${id}-kind`} value={kind} onChange={(event) => choose(event.target.value as PolicyKind)}>
          {POLICY_KINDS.map((each) => <option key={each} value={each}>{POLICY_FORMS[each].label}</option>)}
        </select>
      </div>
      <RefusedField value={saving.refusal}>
        <UnsavedParts value={unsaved.parts}>
          <PolicyForm key={kind} kind={kind} policy={policy} saving={saving.busy} onSave={save} />
        </UnsavedParts>
      </RefusedField>
      <Outcome outcome={saving.outcome} />
    </Subsection>
  );
}
