import { useId, useState } from 'react';
import { DraftNotes } from '../components/draft-notes.tsx';
import { Refusal } from '../components/status.tsx';
import { TenantsNeeded } from '../components/tenants-needed.tsx';
import { clientIssuer } from '../client-issuer.ts';
import { RefusedField, refusalMarks } from '../hooks/use-refused-field.ts';
import { useDraft } from '../hooks/use-draft.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { NEW_CLIENT_DRAFT, settingsOf } from '../oauth-client-draft.ts';
import { CLIENT_TYPE_ORDER, CLIENT_TYPES } from '../oauth-client-types.ts';
import { mayPickTenant, type MayDo } from '../operations-own-permissions.ts';
import { createOAuthClient, withoutSecret, type ClientsContext, type OAuthClient, type OAuthClientType, type OAuthClientWithSecret } from '../operations-oauth-clients.ts';
import { CreatedOAuthClient } from './created-oauth-client.tsx';
import { OAuthClientFields } from './oauth-client-fields.tsx';

const NEW_CLIENT = { type: 'web' as OAuthClientType, tenantId: '', settings: NEW_CLIENT_DRAFT };

interface CreateOAuthClientFormProps {
  appId: string;
  context: ClientsContext;
  issuer: URL;
  onCreated: (client: OAuthClient) => void;
  may: MayDo;
}

/** "Create OAuth client": its type, tenant and settings; then what the app is configured with, and a web client's secret once. */
export function CreateOAuthClientForm({ appId, context, issuer, onCreated, may }: CreateOAuthClientFormProps) {
  const id = useId();
  const [draft, setDraft, sync] = useDraft(NEW_CLIENT, { keep: { name: 'new-oauth-client' } });
  const { type, tenantId, settings } = draft;
  const update = (patch: Partial<typeof NEW_CLIENT>) => setDraft((current) => ({ ...current, ...patch }));
  // The newest client's setup, and any earlier one's secret not dismissed yet: shown once, it may go only when dismissed.
  const [created, setCreated] = useState<readonly OAuthClientWithSecret[]>([]);
  const create = useSubmission<void>();
  const submit = () =>
    create.run(async () => {
      const client = await createOAuthClient(appId, { ...settingsOf(settings, type), type, tenantId: tenantId === '' ? null : tenantId });
      setCreated((shown) => [...shown.filter((earlier) => earlier.clientSecret !== null), client]);
      setDraft(NEW_CLIENT);
      onCreated(withoutSecret(client));
    });

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Create OAuth client</h2>
      <form
        className="client-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <DraftNotes sync={sync} what="new client" />
        <fieldset>
          <legend>Type</legend>
          {CLIENT_TYPE_ORDER.map((value) => (
            <div key={value} className="choice">
              <label>
                <input
                  type="radio"
                  name={`${id}-type`}
                  value={value}
                  checked={type === value}
                  aria-describedby={`${id}-${value}-hint`}
                  onChange={() => update({ type: value })}
                />
                {CLIENT_TYPES[value].label}
              </label>
              <p id={`${id}-${value}-hint`} className="hint">{CLIENT_TYPES[value].explanation}</p>
            </div>
          ))}
        </fieldset>
        {context.multiTenant && <TenantsNeeded may={may} action="Choosing the client's tenant" />}
        {context.multiTenant && mayPickTenant(may) && (
          <div className="field">
            <label htmlFor={`${id}-tenant`}>Tenant</label>
            <select id={`${id}-tenant`} {...refusalMarks(create.refusal, 'tenantId')} value={tenantId} onChange={(event) => update({ tenantId: event.target.value })}>
              <option value="">All tenants</option>
              {context.tenants.map((tenant) => <option key={tenant.id} value={tenant.id}>{tenant.name}</option>)}
            </select>
          </div>
        )}
        <RefusedField value={create.refusal}>
          <OAuthClientFields type={type} draft={settings} onChange={(changed) => update({ settings: changed })} />
        </RefusedField>
        <div>
          <button type="submit" className="primary" disabled={create.busy}>Create OAuth client</button>
        </div>
        <Refusal outcome={create.outcome} />
      </form>
      {created.map((client) => (
        <CreatedOAuthClient
          key={client.clientId}
          client={client}
          issuer={clientIssuer(issuer, client.tenantId, context.isolated)}
          instructions="Configure your app with these values to sign its users in through Gatehouse."
          onDismissSecret={() => setCreated((shown) => shown.map((each) => (each.clientId === client.clientId ? { ...each, clientSecret: null } : each)))}
        />
      ))}
    </section>
  );
}
