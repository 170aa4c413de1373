import type { MikroORM } from '@mikro-orm/postgresql';
import type Provider from 'oidc-provider';
import { liveRow, MODEL, PAYLOAD, type GrantTenantPayload } from '../db/oidc-model.ts';
import { revokeGrant, type GrantRevocationDependencies } from './grant-revocation.ts';

/** Epoch seconds. */
const grantExpiry = (grant: { exp?: number | undefined; expiration: number }) => grant.exp ?? Math.floor(Date.now() / 1000) + grant.expiration;

export interface GrantPlace {
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly inBrowserSession: boolean;
}

/**
 * A session keeps one grant per client: the replaced one ends with its tokens, or they would outlive every listing. Only
 * a sign-in the user proved, or a switch the user confirmed on its page, replaces a live one (endsSignIn).
 */
export async function saveGrantForTenant(
  deps: GrantRevocationDependencies,
  grant: InstanceType<Provider['Grant']>,
  place: GrantPlace,
  replaced?: string,
): Promise<string> {
  const grantId = await grant.save();
  await recordGrantTenant(deps.orm, { id: grantId, applicationId: place.applicationId }, place, grantExpiry(grant));
  if (replaced !== undefined && replaced !== grantId) await revokeGrant(deps, replaced, 'with_tokens', 'tenant_switch');
  return grantId;
}

/** oidc-provider's Grant has no place for the tenant: a row keyed by grant id, so it is revoked and expires with it. */
async function recordGrantTenant(
  orm: MikroORM,
  grant: { readonly id: string; readonly applicationId: string },
  place: Omit<GrantPlace, 'applicationId'>,
  exp: number,
): Promise<void> {
  const payload: GrantTenantPayload = { tenantId: place.tenantId, browserSession: place.inBrowserSession };
  await orm.em.getConnection().execute(
    `insert into oidc_model (model, id, application_id, payload, grant_id, expires_at) values ('${MODEL.GrantTenant}', ?, ?, ?::jsonb, ?, ?)
     on conflict (model, id) do update set payload = excluded.payload, expires_at = excluded.expires_at`,
    [grant.id, grant.applicationId, JSON.stringify(payload), grant.id, new Date(exp * 1000)],
  );
}

export async function grantTenant(orm: MikroORM, grantId: string): Promise<string | null> {
  const [row] = await orm.em
    .getConnection()
    .execute<{ tenant_id: string | null }[]>(
      `select payload->>'${PAYLOAD.tenantId}' as tenant_id from oidc_model where model = '${MODEL.GrantTenant}' and id = ? and ${liveRow()}`,
      [grantId],
    );
  return row?.tenant_id ?? null;
}

/** What saving another grant for the session's client would end: its live grant `replaced`, of this tenant (null: the
 *  application's own); undefined when there is none, or it is gone or expired. */
export async function endsSignIn(orm: MikroORM, replaced: string | undefined): Promise<{ readonly tenantId: string | null } | undefined> {
  if (replaced === undefined) return undefined;
  const [row] = await orm.em.getConnection().execute<{ tenant_id: string | null }[]>(
    `select t.payload->>'${PAYLOAD.tenantId}' as tenant_id
       from oidc_model as g left join oidc_model as t on t.model = '${MODEL.GrantTenant}' and t.id = g.id
      where g.model = '${MODEL.Grant}' and g.id = ? and ${liveRow('g')}`,
    [replaced],
  );
  return row === undefined ? undefined : { tenantId: row.tenant_id };
}
