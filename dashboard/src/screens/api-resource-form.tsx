import { useId, useState } from 'react';
import { NEW_RESOURCE_DRAFT, draftOf } from '../api-resource-draft.ts';
import { IdentifierHeldElsewhere } from '../components/identifier-held-elsewhere.tsx';
import { PermissionRows } from '../components/permission-rows.tsx';
import { DraftNotes } from '../components/draft-notes.tsx';
import { Outcome } from '../components/status.tsx';
import { TextField } from '../components/text-field.tsx';
import { useDraft } from '../hooks/use-draft.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { createApiResource, updateApiResource, type ApiResource, type DefinedPermissions } from '../operations-api-resources.ts';

interface ApiResourceFormProps {
  appId: string;
  /** The application's own permissions, as last read. */
  defined: DefinedPermissions;
  /** The resource edited; none to create one. */
  resource?: ApiResource;
  /** The resource as the server saved it: the tab shows it and reads the permissions defined again. */
  onSaved: (resource: ApiResource) => Promise<void>;
  onClose?: () => void;
}

/** "Create API resource", or the editing of one: its name, identifier and permissions. The server's refusal shows as it gives it. */
export function ApiResourceForm({ appId, defined, resource, onSaved, onClose }: ApiResourceFormProps) {
  const id = useId();
  const [draft, setDraft, sync] = useDraft(resource === undefined ? NEW_RESOURCE_DRAFT : draftOf(resource, defined), { keep: { name: `api-resource:${resource?.id ?? 'new'}` } });
  // Whether the operator edited the identifier since the form took the stored one: only then is it saved (and claimed).
  const [identifierEdited, setIdentifierEdited] = useState(false);
  const save = useSubmission<string>();
  const submit = () =>
    save.run(async () => {
      if (resource !== undefined) {
        const saved = await updateApiResource(appId, resource.id, draft, identifierEdited);
        setIdentifierEdited(false);
        sync.saved();
        await onSaved(saved);
        return `${saved.name} saved.`;
      }
      const created = await createApiResource(appId, draft);
      setDraft(NEW_RESOURCE_DRAFT);
      await onSaved(created);
      return `${created.name} created: grants naming ${created.identifier} as their resource now get tokens for it.`;
    });

  const takeStored = () => {
    setIdentifierEdited(false);
    sync.takeStored();
  };
  const heading = resource === undefined ? 'Create API resource' : `Edit ${resource.name}`;
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{heading}</h2>
      <DraftNotes sync={{ ...sync, takeStored }} what="API resource" />
      {resource !== undefined && <IdentifierHeldElsewhere resource={resource} />}
      <form
        className="api-resource-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <RefusedField value={save.refusal}>
          <TextField label="Name" value={draft.name} onChange={(name) => setDraft({ ...draft, name })} field="name" />
          <TextField
            label="Identifier"
            value={draft.identifier}
            onChange={(identifier) => {
              setIdentifierEdited(true);
              setDraft({ ...draft, identifier });
            }}
            hint="The audience of the API’s tokens, which clients name as resource: an https URI such as https://api.example.com, unique across the service. Tokens already issued keep the one they were issued for."
            field="identifier"
          />
          <PermissionRows rows={draft.permissions} defined={defined} onChange={(permissions) => setDraft({ ...draft, permissions })} />
        </RefusedField>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={save.busy}>{resource === undefined ? 'Create API resource' : 'Save changes'}</button>
          {onClose !== undefined && <button type="button" onClick={onClose}>Close</button>}
        </div>
      </form>
      <Outcome outcome={save.outcome} />
    </section>
  );
}
