import { useId, type FormEvent } from 'react';
import { DraftNotes } from '../components/draft-notes.tsx';
import { GrantPermissions } from '../components/grant-permissions.tsx';
import { Refusal } from '../components/status.tsx';
import { TenantPicker } from '../components/tenant-picker.tsx';
import { TextField } from '../components/text-field.tsx';
import { useDraft } from '../hooks/use-draft.ts';
import { RefusedField, refusalMarks } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { parseJwks, withoutPrivateKeys } from '../jwks-input.ts';
import { AUTH_METHOD_LABEL, AUTH_METHODS, usesSecret } from '../m2m-auth-methods.ts';
import type { GrantChoices } from '../operations-grants.ts';
import { createM2MCredential, type M2MAuthMethod, type M2MCredentialWithSecret } from '../operations-m2m-credentials.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import type { TenantSummary } from '../operations.ts';

interface CredentialDraft {
  readonly name: string;
  readonly authMethod: M2MAuthMethod;
  readonly jwks: string;
  readonly tenant: TenantSummary | null;
  readonly permissions: readonly string[];
}

const NEW_CREDENTIAL: CredentialDraft = { name: '', authMethod: 'client_secret_basic', jwks: '', tenant: null, permissions: [] };

interface CreateM2MCredentialFormProps {
  appId: string;
  choices: GrantChoices;
  onCreated: (created: M2MCredentialWithSecret) => void;
  may: MayDo;
}

/** "Create credential": a name, how it authenticates (a private key's JWKS), in a multi-tenant application its tenant, and its permissions. */
export function CreateM2MCredentialForm({ appId, choices, onCreated, may }: CreateM2MCredentialFormProps) {
  const [draft, setDraft, sync] = useDraft(NEW_CREDENTIAL, {
    keep: { name: 'new-m2m-credential', withoutSecrets: (typed) => ({ ...typed, jwks: withoutPrivateKeys(typed.jwks) }) },
  });
  const { name, authMethod, jwks, tenant, permissions } = draft;
  const update = (patch: Partial<CredentialDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const id = useId();

  // No permission checked is sent as such: the server's refusal says what a credential needs.
  const create = useSubmission<void>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.run(async () => {
      const keys = usesSecret(authMethod) ? {} : { jwks: parseJwks(jwks) };
      const created = await createM2MCredential(appId, { name, permissions, tenantId: tenant?.id ?? null, authMethod, ...keys });
      setDraft(NEW_CREDENTIAL);
      onCreated(created);
    });
  };

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Create credential</h2>
      <form className="key-form" noValidate onSubmit={submit}>
        <DraftNotes sync={sync} what="new credential" />
        <div className="inline-form">
          <div>
            <label htmlFor={`${id}-name`}>Name</label>
            <input id={`${id}-name`} required {...refusalMarks(create.refusal, 'name')} value={name} onChange={(event) => update({ name: event.target.value })} />
          </div>
          <div>
            <label htmlFor={`${id}-method`}>Authentication</label>
            <select id={`${id}-method`} {...refusalMarks(create.refusal, 'authMethod')} value={authMethod} onChange={(event) => update({ authMethod: AUTH_METHODS.find((method) => method === event.target.value) ?? authMethod })}>
              {AUTH_METHODS.map((method) => <option key={method} value={method}>{AUTH_METHOD_LABEL[method]}</option>)}
            </select>
          </div>
        </div>
        <RefusedField value={create.refusal}>
          {!usesSecret(authMethod) && (
            <TextField
              label="JWKS"
              rows={8}
              value={jwks}
              onChange={(typed) => update({ jwks: typed })}
              hint='The public keys its client assertions are signed with, as JSON: {"keys": [...]}. Never a private key.'
              field="jwks"
            />
          )}
          {choices.multiTenant && <TenantPicker may={may} action="Choosing the credential's tenant" appId={appId} selected={tenant} onSelect={(chosen) => update({ tenant: chosen })} noTenantLabel="Application-wide" field="tenantId" />}
        </RefusedField>
        <RefusedField value={create.refusal}>
          <GrantPermissions holder="credential" permissions={choices.permissions} checked={permissions} onChange={(checked) => update({ permissions: checked })} />
        </RefusedField>
        <button type="submit" className="primary" disabled={create.busy}>Create credential</button>
      </form>
      <Refusal outcome={create.outcome} />
    </section>
  );
}
