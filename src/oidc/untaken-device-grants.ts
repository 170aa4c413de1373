import type { InteractionResults } from 'oidc-provider';
import { MODEL } from '../db/oidc-model.ts';
import { revokeGrant, type GrantRevocationDependencies } from './grant-revocation.ts';

/** A `consent` whose grant the interaction made, rather than kept from the browser session. */
const GRANT_MADE = 'gatehouseGrantMade';

export const madeGrant = (grantId: string) => ({ grantId, [GRANT_MADE]: true });

export function grantMadeBy(result: InteractionResults | undefined): string | undefined {
  const consent = result?.consent;
  return typeof consent?.grantId === 'string' && consent[GRANT_MADE] === true ? consent.grantId : undefined;
}

/**
 * A device sign-in's grant is made before the OP saves the code; if the code does not then name it (decided, expired,
 * gone) it would stand unlisted: it ends, the user's act.
 */
export async function revokeUntakenDeviceGrant(deps: GrantRevocationDependencies, deviceCodeId: string, grantId: string): Promise<void> {
  const taken = await deps.orm.em
    .getConnection()
    .execute<unknown[]>(`select 1 from oidc_model where model = '${MODEL.DeviceCode}' and id = ? and grant_id = ?`, [deviceCodeId, grantId]);
  if (taken.length === 0) await revokeGrant(deps, grantId, 'with_tokens', 'device_code_used');
}
