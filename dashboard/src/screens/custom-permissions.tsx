import { useId, type FormEvent } from 'react';
import { DraftNotes } from '../components/draft-notes.tsx';
import { OwnerTenantField } from '../components/owner-tenant-field.tsx';
import { ErrorMessage, Outcome } from '../components/status.tsx';
import { TextField } from '../components/text-field.tsx';
import { useConfirmedAction } from '../hooks/use-confirmed-action.ts';
import { useNewDraft } from '../hooks/use-draft.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import { createPermission, deletePermission, type CataloguedPermission, type RoleChoices } from '../operations-roles.ts';
import { placeName } from '../role-choices.ts';

interface PermissionRowProps {
  appId: string;
  permission: CataloguedPermission;
  multiTenant: boolean;
  choices: RoleChoices;
  deletable: boolean;
  onDeleted: () => void;
}

function PermissionRow({ appId, permission, multiTenant, choices, deletable, onDeleted }: PermissionRowProps) {
  const deletion = useConfirmedAction();
  const remove = () =>
    deletion.run(
      `Delete the permission ${permission.key}? Every role that gives it loses it, and API resources no longer list it: tokens stop carrying it.`,
      async () => {
        await deletePermission(appId, permission.id);
        onDeleted();
      },
    );
  return (
    <tr>
      <th scope="row"><code>{permission.key}</code></th>
      <td>{permission.description}</td>
      {multiTenant && <td>{placeName(choices, permission.tenantId)}</td>}
      {deletable && (
        <td className="actions">
          <button type="button" className="small" disabled={deletion.busy} onClick={remove}>
            Delete<span className="visually-hidden">{` ${permission.key}`}</span>
          </button>
          {deletion.failure !== null && <ErrorMessage message={deletion.failure} />}
        </td>
      )}
    </tr>
  );
}

interface PermissionDraft {
  readonly key: string;
  readonly description: string;
  readonly tenantId: string | null;
}

const NEW_PERMISSION: PermissionDraft = { key: '', description: '', tenantId: null };

function CreatePermissionForm({ appId, choices, may, onCreated }: { appId: string; choices: RoleChoices; may: MayDo; onCreated: () => void }) {
  const id = useId();
  const [draft, setDraft, startAgain, sync] = useNewDraft(NEW_PERMISSION, { name: 'permission:new' });
  const submission = useSubmission<string>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submission.run(async () => {
      const created = await createPermission(appId, draft.tenantId, { key: draft.key.trim(), description: draft.description.trim() });
      startAgain(NEW_PERMISSION);
      onCreated();
      return `Permission ${created.key} created: roles may give it now.`;
    });
  };
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Create permission</h2>
      <DraftNotes sync={sync} what="permission" />
      <form className="inline-form" onSubmit={submit}>
        <RefusedField value={submission.refusal}>
          <TextField
            label="Key"
            value={draft.key}
            onChange={(key) => setDraft({ ...draft, key })}
            hint="resource:action, each part lower-case letters, digits, _ or -; not a resource of the management API's."
            field="key"
          />
          <TextField label="Description (optional)" value={draft.description} onChange={(description) => setDraft({ ...draft, description })} field="description" />
        </RefusedField>
        <OwnerTenantField
          choices={choices}
          may={may}
          what="permission"
          tenantId={draft.tenantId}
          onChange={(tenantId) => setDraft({ ...draft, tenantId })}
          refusal={submission.refusal}
        />
        <button type="submit" className="primary" disabled={submission.busy}>Create permission</button>
      </form>
      <Outcome outcome={submission.outcome} />
    </section>
  );
}

interface CustomPermissionsProps {
  appId: string;
  may: MayDo;
  choices: RoleChoices;
  /** The whole catalogue, built-in permissions included. */
  catalogue: readonly CataloguedPermission[];
  /** Told after a creation or deletion: the catalogue, and the roles a deletion changed, are read again. */
  onChanged: () => void;
}

/**
 * The application's own permissions (its tenants' too), which roles give and API resources' tokens carry: each with
 * Delete once confirmed, and Create permission, as the operator's permissions allow. The built-in ones are the
 * management API's, listed in the roles' form.
 */
export function CustomPermissions({ appId, may, choices, catalogue, onChanged }: CustomPermissionsProps) {
  const custom = catalogue.filter((permission) => !permission.builtIn);
  const deletable = may('permissions:delete');
  return (
    <>
      <section aria-labelledby="custom-permissions-heading">
        <h2 id="custom-permissions-heading">Custom permissions</h2>
        <p className="hint">The application&apos;s own permissions, for its APIs: roles give them, and API resources&apos; tokens carry them.</p>
        {custom.length === 0 ? (
          <p>The application defines no permission of its own yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Description</th>
                {choices.multiTenant && <th scope="col">Where</th>}
                {deletable && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {custom.map((permission) => (
                <PermissionRow key={permission.id} appId={appId} permission={permission} multiTenant={choices.multiTenant} choices={choices} deletable={deletable} onDeleted={onChanged} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      {may('permissions:write') && <CreatePermissionForm appId={appId} choices={choices} may={may} onCreated={onChanged} />}
    </>
  );
}
