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
 * Taking an upstream provider's word for an account hands out all the account holds, as setting its password does
 * (docs/decisions.md, "Upstream providers"): so whoever made the provider or last changed its config or secrets must
 * hold all of it too, now. What the account holds: its roles application-wide and in each tenant where it has one, and
 * for a console's user, what it holds as an operator. Permissions of the management API only: the product's own need no
 * holding. Null configurers (a provider made before the rule) hold nothing.
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
    const held = await readHeldGrants(em, place.applicationId, place.tenantId, [place.account], { anyStatus: true });
    const wanted = grantsOf(held.get(subjectKey(place.account))).allowed();
    if (wanted.length === 0) continue;
    const configurersHold = jointPermissions(await readHeldGrants(em, place.applicationId, place.tenantId, place.configurers), place.configurers);
    if (!configurersHold.covers(wanted)) return false;
  }
  return true;
}
