import { useId, useState, type FormEvent } from 'react';
import { GrantPermissions } from '../components/grant-permissions.tsx';
import { ErrorMessage } from '../components/status.tsx';
import { TenantPicker } from '../components/tenant-picker.tsx';
import { errorMessage } from '../error-message.ts';
import { createApiKey, type ApiKeyWithSecret } from '../operations-api-keys.ts';
import type { GrantChoices } from '../operations-grants.ts';
import type { TenantSummary } from '../operations.ts';

interface CreateApiKeyFormProps {
  appId: string;
  choices: GrantChoices;
  /** With the tenant the key was made for (null: application-wide). */
  onCreated: (created: ApiKeyWithSecret, tenant: TenantSummary | null) => void;
}

/** "Create API key": a name, its permissions, in a multi-tenant application its tenant, and an optional expiry. */
export function CreateApiKeyForm({ appId, choices, onCreated }: CreateApiKeyFormProps) {
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<readonly string[]>([]);
  const [tenant, setTenant] = useState<TenantSummary | null>(null);
  const [expires, setExpires] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const id = useId();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    // No permission checked is sent as such: the server's refusal says what a key needs.
    const input = { name, permissions, tenantId: tenant?.id ?? null, expiresAt: expires === '' ? null : new Date(expires).toISOString() };
    try {
      const created = await createApiKey(appId, input);
      setName('');
      setPermissions([]);
      setExpires('');
      onCreated(created, tenant);
    } catch (error) {
      setFailure(errorMessage(error));
    }
    setBusy(false);
  };

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Create API key</h2>
      <form className="key-form" onSubmit={(event) => void submit(event)}>
        <div className="inline-form">
          <div>
            <label htmlFor={`${id}-name`}>Name</label>
            <input id={`${id}-name`} required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
          </div>
          <div>
            <label htmlFor={`${id}-expires`}>Expires (optional)</label>
            <input id={`${id}-expires`} type="datetime-local" value={expires} onChange={(event) => setExpires(event.target.value)} />
          </div>
        </div>
        {choices.multiTenant && <TenantPicker appId={appId} selected={tenant} onSelect={setTenant} noTenantLabel="Application-wide" />}
        <GrantPermissions holder="key" permissions={choices.permissions} checked={permissions} onChange={setPermissions} />
        <button type="submit" className="primary" disabled={busy}>Create API key</button>
      </form>
      {failure !== null && <ErrorMessage message={failure} />}
    </section>
  );
}
