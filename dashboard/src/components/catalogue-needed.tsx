import { CATALOGUE_READ, type MayDo } from '../operations-own-permissions.ts';

/** Where `permission` would offer a form choosing among the permissions but the catalogue may not be read: why none shows. */
export function CatalogueNeeded({ may, permission, action }: { may: MayDo; permission: string; action: string }) {
  if (!may(permission) || may(CATALOGUE_READ)) return null;
  return <p className="hint">{`${action} also takes ${CATALOGUE_READ}, to list the permissions to choose from.`}</p>;
}
