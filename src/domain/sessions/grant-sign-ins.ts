import { uuidOrNullSql } from '../../ids.ts';
import { MODEL, PAYLOAD, USE_TTL_KEY } from '../../db/oidc-model.ts';
import type { standingSignInsSince } from '../sign-in/session.ts';

/** A grant no standing OP session of its user holds (an offline grant that outlived its browser's sign-in, a device's) with a
 *  live token not bound to that session (`expiresWithSession`): a sign-in of its own, listed beside the browser sessions
 *  (own-sessions.ts) and by the API as a session (sessions.ts). */

/** A UUIDv7 of the grant's issue time, the rest the grant id's hash: the same at every read, sorted by sign-in time. */
const SIGN_IN_ID = `(lpad(to_hex((g.payload->>'${PAYLOAD.iat}')::bigint * 1000), 12, '0') || '7' || substr(md5(g.id), 1, 3) || '8' || substr(md5(g.id), 4, 15))::uuid`;

const CLIENT_ID = uuidOrNullSql(`g.payload->>'${PAYLOAD.clientId}'`);

/** Every read asks it: the OP may save a grant from its client cache as the client's deletion commits, left until the
 *  sweep ends it (endGrantsOfDeletedClients). */
export const STANDING_CLIENT = `exists (select 1 from oauth_client as c where c.application_id = g.application_id and c.id = ${CLIENT_ID} and c.revoked_at is null)`;

/** Of OP session row `o`: its sign-in, and its last use (its end less the lifetime that use gave it), epoch seconds. */
export const LOGIN_TS = `(o.payload->>'${PAYLOAD.loginTs}')::float8`;
export const USED_AT = `extract(epoch from o.expires_at)::float8 - (o.payload->>'${USE_TTL_KEY}')::float8`;

/** By pool id, the session policy's standingSignInsSince (sign-in/session.ts) as it is now. */
export type PolicyCutoffs = Readonly<Record<string, ReturnType<typeof standingSignInsSince>>>;

/** OP session `o` (or the sign-in and last use `times` read of it) of a user of pool `pool` (text) has not been ended by
 *  the policy before its stored end, by the cutoffs `?` (two parameters, cutoffsParams). A pool the cutoffs do not name
 *  is judged by the stored end alone. */
export const standsUnderPolicy = (pool: string, times: { readonly loginTs: string; readonly usedAt: string } = { loginTs: LOGIN_TS, usedAt: USED_AT }) =>
  `coalesce(${times.loginTs} > (?::jsonb->${pool}->>'signedInAfter')::float8, true) and coalesce(${times.usedAt} > (?::jsonb->${pool}->>'usedAfter')::float8, true)`;

export const cutoffsParams = (cutoffs: PolicyCutoffs): string[] => Array<string>(2).fill(JSON.stringify(cutoffs));

/** User `u`'s cutoff or lifetime `field`, a parameter; null when the cutoffs do not name the pool. */
export const cutoff = (field: keyof PolicyCutoffs[string]) => `(?::jsonb->u.pool_id::text->>'${field}')::float8`;
/** Of token `k`: its chain's first issue, and its own (a refresh token's last use). */
const CHAIN_START = `coalesce((k.payload->>'${PAYLOAD.iiat}')::float8, (k.payload->>'${PAYLOAD.iat}')::float8)`;
const TOKEN_IAT = `(k.payload->>'${PAYLOAD.iat}')::float8`;
/** Refresh token `k`'s last use to the millisecond of its stored end: that end less the lifetime its issue gave it, as a
 *  browser session's (USED_AT), so an unchanged policy gives the stored end exactly. */
const TOKEN_USED_AT = `coalesce(k.expires_at - make_interval(secs => (k.payload->>'${PAYLOAD.exp}')::float8 - ${TOKEN_IAT}), to_timestamp(${TOKEN_IAT}))`;
/** Refresh token `k`'s end by the policy as it is now (two parameters): signInEnd (sign-in/session.ts) of its chain's first
 *  issue and its last use, as the token endpoint judges it (src/oidc/account.ts). Null for a pool the cutoffs do not name. */
const REFRESH_POLICY_END = `least(to_timestamp(${CHAIN_START} + ${cutoff('absoluteSeconds')}), ${TOKEN_USED_AT} + make_interval(secs => ${cutoff('idleSeconds')}))`;

/** Judged by `now`, this instance's clock, as sessions.ts judges browser sessions; `last_active_at` is the last refresh.
 *  `any` includes gone clients' (a statement ending them records each as the sign-in it was). A browser session the
 *  policy has ended (`cutoffs`) holds no grant; a refresh token counts while the cutoffs stand it, until the earlier of
 *  its stored end and the policy's, as the token endpoint judges it (src/oidc/account.ts). */
export function grantSignInsSql(
  where: string,
  params: readonly unknown[],
  now: Date,
  { clients = 'standing', cutoffs = {} }: { clients?: 'standing' | 'any'; cutoffs?: PolicyCutoffs } = {},
): { sql: string; params: unknown[] } {
  const [json] = cutoffsParams(cutoffs);
  return {
    sql: `select ${SIGN_IN_ID} as id, g.id as grant_id, u.id as user_id, (gt.payload->>'${PAYLOAD.tenantId}')::uuid as tenant_id, ${CLIENT_ID} as client_id,
            to_timestamp((g.payload->>'${PAYLOAD.iat}')::bigint) as created_at, to_timestamp(k.last_iat) as last_active_at,
            least(k.expires_at, g.expires_at) as expires_at
       from oidc_model as g
       join app_user as u on u.application_id = g.application_id and u.id::text = g.payload->>'${PAYLOAD.accountId}'
       left join oidc_model as gt on gt.model = '${MODEL.GrantTenant}' and gt.id = g.id
       cross join lateral (select max((k.payload->>'${PAYLOAD.iat}')::bigint) as last_iat, max(case when k.model = '${MODEL.RefreshToken}' then least(k.expires_at, ${REFRESH_POLICY_END}) else k.expires_at end) as expires_at
          from oidc_model as k
          where k.grant_id = g.id and k.model in ('${MODEL.AccessToken}', '${MODEL.RefreshToken}') and k.consumed_at is null
            and (k.expires_at is null or k.expires_at > ?::timestamptz) and (k.payload->>'${PAYLOAD.expiresWithSession}') is distinct from 'true'
            and (k.model <> '${MODEL.RefreshToken}' or (coalesce(${CHAIN_START} > ${cutoff('signedInAfter')}, true) and coalesce(${TOKEN_IAT} > ${cutoff('usedAfter')}, true)))) as k
      where g.model = '${MODEL.Grant}' and @owner(g) and (g.expires_at is null or g.expires_at > ?::timestamptz) and k.last_iat is not null${clients === 'standing' ? ` and ${STANDING_CLIENT}` : ''}
        and not exists (select 1 from oidc_model as o cross join jsonb_each(o.payload->'${PAYLOAD.authorizations}') as a
          where o.model = '${MODEL.Session}' and o.payload->>'${PAYLOAD.accountId}' = g.payload->>'${PAYLOAD.accountId}' and (o.expires_at is null or o.expires_at > ?::timestamptz)
            and a.value->>'${PAYLOAD.grantId}' = g.id and ${standsUnderPolicy('u.pool_id::text')})
        ${where}`,
    params: [json, json, now, json, json, now, now, ...cutoffsParams(cutoffs), ...params],
  };
}

/** `where` of grantSignInsSql for the sign-in whose session id is `id` (a UUID). */
export const SIGN_IN_ID_IS = `and ${SIGN_IN_ID} = ?::uuid`;
