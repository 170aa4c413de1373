import { useId, type FormEvent } from 'react';
import { DraftNotes } from '../components/draft-notes.tsx';
import { GrantPermissions } from '../components/grant-permissions.tsx';
import { Refusal } from '../components/status.tsx';
import { TenantPicker } from '../components/tenant-picker.tsx';
import { useDraft } from '../hooks/use-draft.ts';
import { RefusedField, refusalMarks } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { createApiKey, type ApiKeyWithSecret } from '../operations-api-keys.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import type { GrantChoices } from '../operations-grants.ts';
import type { TenantSummary } from '../operations.ts';

const NEW_KEY = { name: '', permissions: [] as readonly string[], tenant: null as TenantSummary | null, expires: '' };

interface CreateApiKeyFormProps {
  appId: string;
  choices: GrantChoices;
  /** With the tenant the key was made for (null: application-wide). */
  onCreated: (created: ApiKeyWithSecret, tenant: TenantSummary | null) => void;
  may: MayDo;
}

/** "Create API key": a name, its permissions, in a multi-tenant application its tenant, and an optional expiry. */
export function CreateApiKeyForm({ appId, choices, onCreated, may }: CreateApiKeyFormProps) {
  const [draft, setDraft, sync] = useDraft(NEW_KEY, { keep: { name: 'new-api-key' } });
  const { name, permissions, tenant, expires } = draft;
  const update = (patch: Partial<typeof NEW_KEY>) => setDraft((current) => ({ ...current, ...patch }));
  const submission = useSubmission<void>();
  const id = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // No permission checked is sent as such: the server's refusal says what a key needs.
    const input = { name, permissions, tenantId: tenant?.id ?? null, expiresAt: expires === '' ? null : new Date(expires).toISOString() };
    submission.run(async () => {
      const created = await createApiKey(appId, input);
      setDraft(NEW_KEY);
      onCreated(created, tenant);
    });
  };

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Create API key</h2>
      <form className="key-form" onSubmit={submit}>
        <DraftNotes sync={sync} what="new API key" />
        <div className="inline-form">
          <div>
            <label htmlFor={`${id}-name`}>Name</label>
            <input id={`${id}-name`} required maxLength={200} {...refusalMarks(submission.refusal, 'name')} value={name} onChange={(event) => update({ name: event.target.value })} />
          </div>
          <div>
            <label htmlFor={`${id}-expires`}>Expires (optional)</label>
            <input id={`${id}-expires`} type="datetime-local" {...refusalMarks(submission.refusal, 'expiresAt')} value={expires} onChange={(event) => update({ expires: event.target.value })} />
          </div>
        </div>
        {choices.multiTenant && (
          <RefusedField value={submission.refusal}>
            <TenantPicker may={may} action="Choosing the key's tenant" appId={appId} selected={tenant} onSelect={(chosen) => update({ tenant: chosen })} noTenantLabel="Application-wide" field="tenantId" />
          </RefusedField>
        )}
        <RefusedField value={submission.refusal}>
          <GrantPermissions holder="key" permissions={choices.permissions} checked={permissions} onChange={(checked) => update({ permissions: checked })} />
        </RefusedField>
        <button type="submit" className="primary" disabled={submission.busy}>Create API key</button>
      </form>
      <Refusal outcome={submission.outcome} />
    </section>
  );
}
