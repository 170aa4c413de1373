import { useId, useState } from 'react';
import { createInputOf, type ProviderDraft } from '../auth-provider-draft.ts';
import { AUTH_PROVIDER_KINDS, AUTH_PROVIDER_TYPES } from '../auth-provider-kinds.ts';
import { useKeptPlace } from '../hooks/use-kept.ts';
import { RefusedField, refusalMarks } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { UnsavedParts, useUnsavedPart } from '../hooks/use-unsaved-changes.ts';
import { createAuthProvider } from '../operations-auth.ts';
import type { AuthProvider, AuthProviderType } from '../operations-email-auth.ts';
import type { SettingsScope } from '../operations.ts';
import { AuthProviderForm } from './auth-provider-form.tsx';
import { Outcome } from './status.tsx';
import { Subsection } from './subsection.tsx';

interface AddAuthProviderProps {
  /** The application's, or a tenant's, whose provider is then its own. */
  scope: SettingsScope;
  /** What the form says first about adding in this scope. */
  hint?: string;
  /** The scope's own providers: the type offered first is one it may add (one of each but OAuth's). */
  own: readonly AuthProvider[];
  /** Shows the provider added (or reads the scope's providers again). */
  onAdded: (provider: AuthProvider) => Promise<void>;
}

/** "Add a provider": its type, then the form of that type, which starts afresh when the type changes or one is added. */
export function AddAuthProvider({ scope, hint, own, onAdded }: AddAuthProviderProps) {
  const id = useId();
  const [chosen, setType] = useKeptPlace<AuthProviderType | null>('new-provider-type', null);
  const type = chosen ?? AUTH_PROVIDER_TYPES.find((each) => each === 'oauth' || !own.some((provider) => provider.type === each)) ?? 'oauth';
  const [added, setAdded] = useState(0);
  const adding = useSubmission<string>();
  const unsaved = useUnsavedPart();
  const add = (draft: ProviderDraft) =>
    adding.run(async () => {
      const provider = await createAuthProvider(scope, createInputOf(type, draft));
      setAdded((count) => count + 1);
      await onAdded(provider);
      return `Added the ${provider.name} provider.`;
    });
  const choose = unsaved.guard((next: AuthProviderType) => {
    setType(next);
    adding.clear();
  });

  const typeChoice = (
    <div className="field">
      <label htmlFor={`${id}-type`}>Type</label>
      <select id={`${id}-type`} {...refusalMarks(adding.refusal, 'type')} value={type} onChange={(event) => choose(event.target.value as AuthProviderType)}>
        {AUTH_PROVIDER_TYPES.map((each) => <option key={each} value={each}>{AUTH_PROVIDER_KINDS[each].label}</option>)}
      </select>
    </div>
  );
  return (
    <Subsection title="Add a provider">
      {hint !== undefined && <p className="hint">{hint}</p>}
      <RefusedField value={adding.refusal}>
        <UnsavedParts value={unsaved.parts}>
          <AuthProviderForm key={`${type} ${added}`} type={type} provider={null} leading={typeChoice} submitLabel="Add provider" busy={adding.busy} onSubmit={add} />
        </UnsavedParts>
      </RefusedField>
      <Outcome outcome={adding.outcome} />
    </Subsection>
  );
}
