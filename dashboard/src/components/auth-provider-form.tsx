import type { FormEvent, ReactNode } from 'react';
import { AUTH_PROVIDER_KINDS, enabledWords, secretsOf } from '../auth-provider-kinds.ts';
import { changedSettings, keepsStoredSecrets, providerDraftOf, withoutSecrets, type ProviderDraft } from '../auth-provider-draft.ts';
import { useDraft } from '../hooks/use-draft.ts';
import { useRefusalMarks } from '../hooks/use-refused-field.ts';
import type { AuthProvider, AuthProviderType } from '../operations-email-auth.ts';
import { DraftNotes } from './draft-notes.tsx';
import { SecretField } from './secret-field.tsx';
import { SettingInputs } from './setting-inputs.tsx';
import { TextField } from './text-field.tsx';

interface AuthProviderFormProps {
  type: AuthProviderType;
  /** The provider being edited, which the form starts from; null for a new one. */
  provider: AuthProvider | null;
  /** What comes first in the form (a new provider's type). */
  leading?: ReactNode;
  submitLabel: string;
  busy: boolean;
  onSubmit: (draft: ProviderDraft) => void;
  /** Buttons beside the submit (Cancel). */
  children?: ReactNode;
}

/** A provider's name, whether it is on, the settings of its type and its write-only secrets. */
export function AuthProviderForm({ type, provider, leading, submitLabel, busy, onSubmit, children }: AuthProviderFormProps) {
  const [draft, setDraft, sync] = useDraft(providerDraftOf(type, provider), { keep: { name: `provider:${provider?.id ?? `new:${type}`}`, withoutSecrets } });
  const kind = AUTH_PROVIDER_KINDS[type];
  const enabledMarks = useRefusalMarks('enabled');
  const update = (patch: Partial<ProviderDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const setSecret = (name: string) => (value: string) => setDraft((current) => ({ ...current, secrets: { ...current.secrets, [name]: value } }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit(draft);
  };

  return (
    // noValidate: the server judges the values, and its refusal is the message shown.
    <form className="stacked-form auth-form" noValidate onSubmit={submit}>
      {leading}
      <DraftNotes sync={sync} what="provider" />
      {kind.hint !== undefined && <p className="hint">{kind.hint}</p>}
      <TextField
        label="Name"
        value={draft.name}
        onChange={(name) => update({ name })}
        hint={provider === null ? 'Shown on the sign-in page; empty: named after its type.' : 'Shown on the sign-in page.'}
        field="name"
      />
      <div className="field">
        <label>
          <input type="checkbox" checked={draft.enabled} {...enabledMarks} onChange={(event) => update({ enabled: event.target.checked })} />
          {enabledWords(type).checkbox}
        </label>
      </div>
      <SettingInputs fields={kind.fields} draft={draft.settings} onChange={(settings) => update({ settings: changedSettings(type, provider, draft.settings, settings) })} fieldPrefix="config." />
      {secretsOf(kind, draft.settings).map((secret) => (
        <SecretField
          key={secret.name}
          label={secret.label}
          rows={secret.rows}
          value={draft.secrets[secret.name] ?? ''}
          onChange={setSecret(secret.name)}
          stored={keepsStoredSecrets(type, provider, draft) && (provider?.secretsSet.includes(secret.name) ?? false)}
          field={`secrets.${secret.name}`}
        />
      ))}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>{submitLabel}</button>
        {children}
      </div>
    </form>
  );
}
