import { useId } from 'react';
import { DraftNotes } from '../components/draft-notes.tsx';
import { Refusal } from '../components/status.tsx';
import { useDraft } from '../hooks/use-draft.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { draftOf, settingsOf } from '../oauth-client-draft.ts';
import { updateOAuthClient, type OAuthClient } from '../operations-oauth-clients.ts';
import { OAuthClientFields } from './oauth-client-fields.tsx';

interface EditOAuthClientFormProps {
  appId: string;
  client: OAuthClient;
  onSaved: (client: OAuthClient) => void;
  onCancel: () => void;
}

/** A client's settings to change (its type and tenant never change); a refusal leaves the client as it was. */
export function EditOAuthClientForm({ appId, client, onSaved, onCancel }: EditOAuthClientFormProps) {
  const id = useId();
  const [draft, setDraft, sync] = useDraft(draftOf(client), { keep: { name: `oauth-client:${client.clientId}` } });
  const save = useSubmission<void>();

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{`Edit ${client.name}`}</h2>
      <DraftNotes sync={sync} what="client" />
      <form
        className="client-form"
        onSubmit={(event) => {
          event.preventDefault();
          save.run(async () => onSaved(await updateOAuthClient(appId, client.clientId, settingsOf(draft, client.type))));
        }}
      >
        <RefusedField value={save.refusal}>
          <OAuthClientFields type={client.type} draft={draft} onChange={setDraft} />
        </RefusedField>
        <div>
          <button type="submit" className="primary" disabled={save.busy}>Save changes</button>
          <button type="button" className="cancel" onClick={onCancel}>Cancel</button>
        </div>
        <Refusal outcome={save.outcome} />
      </form>
    </section>
  );
}
