import { mayPickTenant, TENANTS_READ, type MayDo } from '../operations-own-permissions.ts';

/** Where a choice of tenant would be offered but the tenants may not be listed: why none shows. */
export function TenantsNeeded({ may, action }: { may: MayDo; action: string }) {
  if (mayPickTenant(may)) return null;
  return <p className="hint">{`${action} also takes ${TENANTS_READ}, to list the tenants to choose from.`}</p>;
}
