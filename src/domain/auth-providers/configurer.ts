import type { EntityManager } from '@mikro-orm/postgresql';
import { executeOwned } from '../../db/owned-sql.ts';
import { operatorPlaces } from '../console/operators.ts';
import { assignedTenants } from '../grants.ts';
import { grantsOf, jointPermissions, readHeldGrants, subjectKey, type RoleSubject } from '../authorization/held-roles.ts';

interface Place {
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly account: RoleSubject;
  readonly configurers: readonly RoleSubject[];
}

/** In another application of a console's organization, a console user's rights are an operator's; credentials of the
 *  console itself hold nothing there. */
const asOperators = (configurers: readonly RoleSubject[]): RoleSubject[] => configurers.map((subject) => (subject.type === 'user' ? { type: 'operator', id: subject.id } : subject));

/**
 * Taking a provider's word for an account hands out all it holds, as setting its password does: so whoever made the
 * provider or last changed its config or secrets must hold, now, the account's management-API permissions everywhere
 * it holds them (docs/decisions.md, "Social and OIDC sign-in"). Null configurers hold nothing.
 */
export async function configurersCoverAccount(em: EntityManager, applicationId: string, providerId: string, userId: string): Promise<boolean> {
  const [row] = await executeOwned<{ configured_by: RoleSubject[] | null }[]>(em, applicationId, 'select configured_by from auth_provider where @owner and id = ?', [providerId]);
  const configurers = row?.configured_by ?? [];
  const account: RoleSubject = { type: 'user', id: userId };
  const places: Place[] = [
    ...[null, ...(await assignedTenants(em, applicationId, account))].map((tenantId) => ({ applicationId, tenantId, account, configurers })),
    ...(await operatorPlaces(em, applicationId, userId)).map((place) => ({
      applicationId: place.application_id,
      tenantId: place.tenant_id,
      account: { type: 'operator', id: userId } as const,
      configurers: asOperators(configurers),
    })),
  ];
  for (const place of places) {
    // An account that cannot act now holds nothing here; its sign-in is refused for that after this check.
    const held = await readHeldGrants(em, place.applicationId, place.tenantId, [place.account, ...place.configurers]);
    const wanted = grantsOf(held.get(subjectKey(place.account))).allowed();
    if (wanted.length > 0 && !jointPermissions(held, place.configurers).covers(wanted)) return false;
  }
  return true;
}
