import { useId, type FormEvent } from 'react';
import { EMAIL_PROVIDER_KINDS, EMAIL_PROVIDER_TYPES } from '../email-providers.ts';
import { useDraft } from '../hooks/use-draft.ts';
import { useRefusalMarks } from '../hooks/use-refused-field.ts';
import type { EmailProvider, EmailProviderType, SmtpSecurity } from '../operations-email-auth.ts';
import type { EmailProviderInput } from '../operations-email.ts';
import { draftOf, inputOf, keepsStoredSecret, type ProviderDraft } from '../provider-draft.ts';
import { DraftNotes } from './draft-notes.tsx';
import { SecretField } from './secret-field.tsx';
import { TextField } from './text-field.tsx';

const SECURITY_LABEL: Record<SmtpSecurity, string> = { starttls: 'STARTTLS', tls: 'TLS', none: 'None (trusted network only)' };

interface EmailProviderFormProps {
  /** The provider as it applies in the scope: the form starts from it. */
  provider: EmailProvider;
  saving: boolean;
  /** Saves the settings; `saved` is called once the server took them, before the provider is read again. */
  onSave: (input: EmailProviderInput, saved: () => void) => void;
}

/** The provider's settings for the chosen kind; its secret is write-only, typed again or kept. */
export function EmailProviderForm({ provider, saving, onSave }: EmailProviderFormProps) {
  const [draft, setDraft, sync] = useDraft<ProviderDraft>(draftOf(provider), { keep: { name: 'email-provider', withoutSecrets: (typed) => ({ ...typed, secret: '' }) } });
  const id = useId();
  const kind = EMAIL_PROVIDER_KINDS[draft.type];
  const typeMarks = useRefusalMarks('type');
  const securityMarks = useRefusalMarks('smtp.security');
  const set =
    <K extends keyof ProviderDraft>(field: K) =>
    (value: ProviderDraft[K]) =>
      setDraft((current) => ({ ...current, [field]: value }));

  // A secret typed for one kind is no credential of another.
  const choose = (type: EmailProviderType) => setDraft((current) => ({ ...current, type, secret: '' }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSave(inputOf(draft), sync.saved);
  };

  return (
    // noValidate: the server judges the values, and its refusal is the message shown.
    <form className="email-form" noValidate onSubmit={submit}>
      <DraftNotes sync={sync} what="provider" />
      <div className="field">
        <label htmlFor={`${id}-type`}>Service</label>
        <select id={`${id}-type`} {...typeMarks} value={draft.type} onChange={(event) => choose(event.target.value as EmailProviderType)}>
          {EMAIL_PROVIDER_TYPES.map((type) => <option key={type} value={type}>{EMAIL_PROVIDER_KINDS[type].label}</option>)}
        </select>
      </div>
      {draft.type === 'gatehouse' ? (
        <p className="hint">The built-in sender sends from no-reply@ this service’s host: choose another service to send from your own domain.</p>
      ) : (
        <TextField label="From address" type="email" value={draft.fromAddress} onChange={set('fromAddress')} field="fromAddress" />
      )}
      <TextField label="From name" value={draft.fromName} onChange={set('fromName')} hint="Optional." field="fromName" />
      <TextField label="Reply-To address" type="email" value={draft.replyTo} onChange={set('replyTo')} hint="Optional." field="replyTo" />
      {draft.type === 'smtp' && (
        <>
          <TextField label="SMTP host" value={draft.host} onChange={set('host')} field="smtp.host" />
          <TextField label="SMTP port" type="number" value={draft.port} onChange={set('port')} field="smtp.port" />
          <div className="field">
            <label htmlFor={`${id}-security`}>Connection security</label>
            <select id={`${id}-security`} {...securityMarks} value={draft.security} onChange={(event) => set('security')(event.target.value as SmtpSecurity)}>
              {Object.entries(SECURITY_LABEL).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
            </select>
          </div>
          <TextField label="SMTP user name" value={draft.username} onChange={set('username')} hint="Optional; with one, a password is needed." field="smtp.username" />
        </>
      )}
      {draft.type === 'ses' && (
        <>
          <TextField label="AWS region" value={draft.region} onChange={set('region')} hint="For example eu-west-1." field="ses.region" />
          <TextField label="Access key id" value={draft.accessKeyId} onChange={set('accessKeyId')} field="ses.accessKeyId" />
        </>
      )}
      {kind.secret !== null && (
        <SecretField
          label={kind.secret.label}
          value={draft.secret}
          onChange={set('secret')}
          stored={keepsStoredSecret(provider, draft)}
          field={`secrets.${kind.secret.name}`}
        />
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={saving}>Save provider</button>
      </div>
    </form>
  );
}
