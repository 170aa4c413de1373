import { updateInputOf, type ProviderDraft } from '../auth-provider-draft.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { updateAuthProvider } from '../operations-auth.ts';
import type { AuthProvider } from '../operations-email-auth.ts';
import type { SettingsScope } from '../operations.ts';
import { AuthProviderForm } from './auth-provider-form.tsx';
import { Refusal } from './status.tsx';
import { Subsection } from './subsection.tsx';

interface EditAuthProviderProps {
  scope: SettingsScope;
  provider: AuthProvider;
  onSaved: () => Promise<void>;
  onCancel: () => void;
}

/** The addresses to register at the identity provider: an OAuth provider's callback, a SAML provider's ACS and metadata. */
function Registration({ provider }: { provider: AuthProvider }) {
  const addresses = [
    ['Callback URL', provider.callbackUrl],
    ['ACS URL', provider.acsUrl],
    ['SP metadata URL', provider.metadataUrl],
  ].filter((entry): entry is [string, string] => entry[1] !== null);
  if (addresses.length === 0) return null;
  return (
    <dl className="details">
      {addresses.map(([term, address]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd><code>{address}</code></dd>
        </div>
      ))}
    </dl>
  );
}

/** "Edit {name}": its settings and secrets (its type never changes); a refusal leaves it as it was. */
export function EditAuthProvider({ scope, provider, onSaved, onCancel }: EditAuthProviderProps) {
  const save = useSubmission<void>();
  const submit = (draft: ProviderDraft) =>
    save.run(async () => {
      await updateAuthProvider(scope, provider.id, updateInputOf(provider.type, draft));
      await onSaved();
    });
  return (
    <Subsection title={`Edit ${provider.name}`}>
      <Registration provider={provider} />
      <RefusedField value={save.refusal}>
        <AuthProviderForm type={provider.type} provider={provider} submitLabel="Save changes" busy={save.busy} onSubmit={submit}>
          <button type="button" onClick={onCancel}>Cancel</button>
        </AuthProviderForm>
      </RefusedField>
      <Refusal outcome={save.outcome} />
    </Subsection>
  );
}
