import { useId, type FormEvent } from 'react';
import { PermissionCheckboxes } from '../components/permission-checkboxes.tsx';
import { DraftNotes } from '../components/draft-notes.tsx';
import { OwnerTenantField } from '../components/owner-tenant-field.tsx';
import { Outcome } from '../components/status.tsx';
import { useDraft } from '../hooks/use-draft.ts';
import { useFocusOnOpen } from '../hooks/use-focus-on-open.ts';
import { RefusedField, refusalMarks } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import { createRole, updateRole, type Permission, type Role, type RoleChoices } from '../operations-roles.ts';
import { permissionOptions } from '../permission-groups.ts';

interface RoleDraft {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly tenantId: string | null;
  /** Sorted: the boxes checked, in whatever order, are the same draft. */
  readonly permissions: readonly string[];
}

const NEW_ROLE: RoleDraft = { key: '', name: '', description: '', tenantId: null, permissions: [] };

/** A custom role as its edit form starts; its key is never changed, and its tenant only names the permissions offered. */
const draftOf = (role: Role): RoleDraft => ({
  key: '',
  name: role.name,
  description: role.description,
  tenantId: role.tenantId,
  permissions: [...role.permissions].sort(),
});

interface RoleFormProps {
  appId: string;
  choices: RoleChoices;
  /** The permission catalogue, as read when the tab opened. */
  catalogue: readonly Permission[];
  /** The custom role edited; none to create one. */
  role?: Role;
  /** The role as the server saved it. */
  onSaved: (role: Role) => void;
  onClose?: () => void;
  may: MayDo;
}

/**
 * "Create role" (a key, a name, a description, in a multi-tenant application where the role lives, and its permissions)
 * or the editing of a custom role's name, description and permissions. The server's refusal shows as it gives it.
 */
export function RoleForm({ appId, choices, catalogue, role, onSaved, onClose, may }: RoleFormProps) {
  const id = useId();
  const [draft, setDraft, sync] = useDraft(role === undefined ? NEW_ROLE : draftOf(role), { keep: { name: `role:${role?.id ?? 'new'}` } });
  const { key, name, description, tenantId, permissions } = draft;
  const update = (patch: Partial<RoleDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const submission = useSubmission<string>();
  const marks = (field: string, describedBy?: string) => refusalMarks(submission.refusal, field, describedBy);
  // The edit form opens below the table, at an Edit button's click.
  const focusOnOpen = useFocusOnOpen();
  const options = permissionOptions(catalogue, tenantId, role?.permissions ?? []);

  // A tenant's own permissions are not offered elsewhere: moving the new role keeps only what it could hold there.
  const chooseTenant = (next: string | null) => {
    const offered = permissionOptions(catalogue, next, []);
    setDraft((current) => ({ ...current, tenantId: next, permissions: current.permissions.filter((grant) => offered.some((permission) => permission.key === grant)) }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const changes = { name: name.trim(), description: description.trim(), permissions };
    submission.run(async () => {
      if (role === undefined) {
        const created = await createRole(appId, { ...changes, key: key.trim(), tenantId });
        setDraft(NEW_ROLE);
        onSaved(created);
        return `Role ${created.name} created.`;
      }
      const updated = await updateRole(appId, role.id, changes);
      sync.saved();
      onSaved(updated);
      return `Role ${updated.name} saved.`;
    });
  };

  const heading = role === undefined ? 'Create role' : `Edit ${role.name}`;
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} {...(role === undefined ? {} : { ref: focusOnOpen, tabIndex: -1 })}>{heading}</h2>
      <DraftNotes sync={sync} what="role" />
      <form onSubmit={submit}>
        <div className="inline-form">
          {role === undefined && (
            <div>
              <label htmlFor={`${id}-key`}>Key</label>
              <input id={`${id}-key`} required {...marks('key', `${id}-key-hint`)} value={key} onChange={(event) => update({ key: event.target.value })} />
            </div>
          )}
          <div>
            <label htmlFor={`${id}-name`}>Name</label>
            <input id={`${id}-name`} required {...marks('name')} value={name} onChange={(event) => update({ name: event.target.value })} />
          </div>
          <div>
            <label htmlFor={`${id}-description`}>Description</label>
            <input id={`${id}-description`} {...marks('description')} value={description} onChange={(event) => update({ description: event.target.value })} />
          </div>
          {role === undefined && <OwnerTenantField choices={choices} may={may} what="role" tenantId={tenantId} onChange={chooseTenant} refusal={submission.refusal} />}
        </div>
        {role === undefined && (
          <p className="hint" id={`${id}-key-hint`}>
            The key names the role in tokens and checks: 1 to 64 lower-case letters, digits, _ or -, unique in the application.
          </p>
        )}
        <RefusedField value={submission.refusal}>
          <PermissionCheckboxes options={options} checked={permissions} onChange={(checked) => update({ permissions: [...checked].sort() })} />
        </RefusedField>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={submission.busy}>{role === undefined ? 'Create role' : 'Save role'}</button>
          {onClose !== undefined && <button type="button" onClick={onClose}>Close</button>}
        </div>
      </form>
      <Outcome outcome={submission.outcome} />
    </section>
  );
}
