import { useCallback } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { CatalogueNeeded } from '../components/catalogue-needed.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { UnlistedRow } from '../components/unlisted-row.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useOpenRow } from '../hooks/use-open-row.ts';
import { usePages, type Pages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { UnsavedParts, useUnsavedPart } from '../hooks/use-unsaved-changes.ts';
import { CATALOGUE_READ, mayChoosePermissions, offersAny, type MayDo } from '../operations-own-permissions.ts';
import { getRoleChoices, listPermissionCatalogue, listRoles, type CataloguedPermission, type Role, type RoleChoices } from '../operations-roles.ts';
import { CustomPermissions } from './custom-permissions.tsx';
import { RoleForm } from './role-form.tsx';
import type { ApplicationScreenProps } from './application.tsx';
import { RoleRow, type RoleActions } from './role-row.tsx';

interface RoleTableProps {
  appId: string;
  roles: Pages<Role>;
  choices: RoleChoices;
  offers: RoleActions;
  onEdit: (role: Role) => void;
  onDeleted: (role: Role) => void;
}

function RoleTable({ appId, roles, choices, offers, onEdit, onDeleted }: RoleTableProps) {
  return (
    <section aria-labelledby="roles-heading">
      <h2 id="roles-heading">Roles</h2>
      <PagedTable
        pages={roles}
        columns={['Name', 'Key', 'Description', 'Permissions', 'Kind', ...(choices.multiTenant ? ['Where'] : [])]}
        actionsHeading={offersAny(offers) ? 'Actions' : undefined}
        emptyMessage="This application has no roles."
        loadingLabel="Loading roles…"
        row={(role) => <RoleRow key={role.id} appId={appId} role={role} choices={choices} offers={offers} onEdit={onEdit} onDeleted={onDeleted} />}
      />
    </section>
  );
}

/** The catalogue, for the role form and the custom permissions, is read where the operator may read it. */
async function loadRoleSetup(appId: string, may: MayDo, readsCatalogue: boolean): Promise<{ choices: RoleChoices; catalogue: readonly CataloguedPermission[] }> {
  const [choices, catalogue] = await Promise.all([getRoleChoices(appId, may), readsCatalogue ? listPermissionCatalogue(appId) : []]);
  return { choices, catalogue };
}

/**
 * The application's roles, built-in ones read-only; creating a role, editing and deleting a custom one; and the
 * application's own permissions, created and deleted: as the operator's permissions allow.
 */
export function Roles({ appId, may }: ApplicationScreenProps) {
  const offers: RoleActions = { edit: mayChoosePermissions(may, 'roles:write'), delete: may('roles:delete') };
  const writable = offers.edit;
  const readsCatalogue = may(CATALOGUE_READ);
  const setup = useAsync(useCallback(() => loadRoleSetup(appId, may, readsCatalogue), [appId, may, readsCatalogue]));
  const roles = usePages(useCallback((cursor: string | null) => listRoles(appId, cursor), [appId]));
  useReadOnReturn(roles);
  // The permissions an open role form offers.
  useReadOnReturn(setup);
  const unsaved = useUnsavedPart();
  const editing = useOpenRow('roles', roles.items, (role) => role.id, unsaved);

  if (setup.status === 'loading') return <Loading>Loading the roles and permissions…</Loading>;
  if (setup.status === 'failed') return <ErrorMessage message={setup.message} />;
  const { choices, catalogue } = setup.data;
  // An edit or deletion here reads the roles again, so changes made elsewhere meanwhile reach the rows and the open panel.
  const saved = (role: Role) => {
    roles.replace(role.id, role);
    roles.refresh();
  };
  const deleted = (role: Role) => {
    editing.forget(role);
    roles.drop(role.id);
    roles.refresh();
  };
  return (
    <>
      <RoleTable appId={appId} roles={roles} choices={choices} offers={offers} onEdit={editing.open} onDeleted={deleted} />
      <UnlistedRow panel={editing} gone={(role) => `The role ${role.name} was deleted elsewhere.`} />
      {editing.row !== undefined && writable && (
        <UnsavedParts value={unsaved.parts}>
          <RoleForm
            key={editing.row.id}
            appId={appId}
            choices={choices}
            catalogue={catalogue}
            role={editing.row}
            onSaved={saved}
            onClose={editing.close}
            may={may}
          />
        </UnsavedParts>
      )}
      {writable && <RoleForm appId={appId} choices={choices} catalogue={catalogue} onSaved={roles.add} may={may} />}
      <CatalogueNeeded may={may} permission="roles:write" action="Creating or editing a role" />
      {readsCatalogue && (
        <CustomPermissions
          appId={appId}
          may={may}
          choices={choices}
          catalogue={catalogue}
          onChanged={() => {
            // The forms offer the catalogue; a deletion takes the permission from the roles that gave it.
            setup.refresh();
            roles.refresh();
          }}
        />
      )}
    </>
  );
}
