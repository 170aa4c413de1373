import type { MikroORM } from '@mikro-orm/postgresql';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import { liveRow, MODEL, PAYLOAD } from '../db/oidc-model.ts';
import { recordAuditPerRow, type AuditActor } from '../domain/audit/audit.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import { opRequestId } from './op-request-id.ts';

export interface GrantRevocationDependencies {
  readonly orm: MikroORM;
  /** A revoked grant's management API Bearer tokens die with it (src/auth/bearer-subject.ts). */
  readonly invalidations: InvalidationBus;
}

/** Read from the OP's request context; `revocation` is RFC 7009's endpoint. */
type GrantRevocationReason = 'revocation' | 'refresh_token_reuse' | 'code_replay' | 'logout' | 'tenant_switch' | 'device_code_used';

const BY_THE_USER: ReadonlySet<GrantRevocationReason> = new Set(['logout', 'tenant_switch', 'device_code_used']);

function revocationReason(ctx: KoaContextWithOIDC | undefined): GrantRevocationReason {
  if (ctx?.oidc.route === 'end_session_confirm') return 'logout';
  if (ctx?.oidc.route !== 'token') return 'revocation';
  return ctx.oidc.params?.['grant_type'] === 'refresh_token' ? 'refresh_token_reuse' : 'code_replay';
}

interface GrantFacts {
  readonly applicationId: string;
  readonly clientId: string;
  readonly userId: string;
  readonly tenantId: string | null;
}

/** Undefined when gone or expired (an expiry is no revocation), or of no application. */
async function liveGrantFacts(deps: GrantRevocationDependencies, grantId: string): Promise<GrantFacts | undefined> {
  const [row] = await deps.orm.em.getConnection().execute<{ application_id: string; client_id: string; user_id: string; tenant_id: string | null }[]>(
    `select g.application_id, g.payload->>'${PAYLOAD.clientId}' as client_id, g.payload->>'${PAYLOAD.accountId}' as user_id, t.payload->>'${PAYLOAD.tenantId}' as tenant_id
       from oidc_model as g left join oidc_model as t on t.model = '${MODEL.GrantTenant}' and t.id = g.id
      where g.model = '${MODEL.Grant}' and g.id = ? and g.application_id is not null and ${liveRow('g')}`,
    [grantId],
  );
  return row === undefined ? undefined : { applicationId: row.application_id, clientId: row.client_id, userId: row.user_id, tenantId: row.tenant_id };
}

/** The OP revokes, and redeems, only a client's own tokens: unless the user revoked, the client did. */
function revocationActor(facts: GrantFacts, reason: GrantRevocationReason, ctx: KoaContextWithOIDC | undefined): AuditActor {
  const actor = BY_THE_USER.has(reason) ? { type: 'user', id: facts.userId } : { type: 'oauth_client', id: facts.clientId };
  return { applicationId: facts.applicationId, tenantId: facts.tenantId, requestId: opRequestId(ctx), principal: { actor } };
}

/** Deletes and audits in one statement, only when the `recorded` row was live: of concurrent revocations one records. */
async function deleteRecorded(
  deps: GrantRevocationDependencies,
  grantId: string,
  revocation: { action: 'grant.revoked' | 'grant.tokens.revoked'; recorded: string; deletion: string; params: readonly unknown[]; reason?: GrantRevocationReason },
): Promise<void> {
  const facts = await liveGrantFacts(deps, grantId);
  if (facts === undefined) {
    await deps.orm.em.getConnection().execute(revocation.deletion, [...revocation.params]);
    return;
  }
  const ctx = Provider.ctx;
  const reason = revocation.reason ?? revocationReason(ctx);
  const after = { reason, clientId: facts.clientId, userId: facts.userId };
  // A reused refresh token is a theft's sign: its own action, for a search or a stream to watch for.
  const action = reason === 'refresh_token_reuse' ? 'refresh_token.reuse_detected' : revocation.action;
  await recordAuditPerRow(deps.orm.em.fork(), revocationActor(facts, reason, ctx), { action, targetType: 'grant', tenantId: facts.tenantId }, {
    ctes: `gone as (${revocation.deletion}),
      changed as (select ?::text as target_id, null::jsonb as before, ?::jsonb as after
        from gone where gone.model = ? and ${liveRow('gone')})`,
    params: [...revocation.params, grantId, JSON.stringify(after), revocation.recorded],
  });
}

/** `grant_only`: the OP revokes its tokens itself; `with_tokens`: a replay the adapter detects. */
export async function revokeGrant(
  deps: GrantRevocationDependencies,
  grantId: string,
  rows: 'grant_only' | 'with_tokens',
  reason?: GrantRevocationReason,
): Promise<void> {
  const deletion =
    rows === 'grant_only'
      ? { deletion: `delete from oidc_model where model = '${MODEL.Grant}' and id = ? returning model, expires_at`, params: [grantId] }
      : { deletion: `delete from oidc_model where grant_id = ? or (model = '${MODEL.Grant}' and id = ?) returning model, expires_at`, params: [grantId, grantId] };
  await deleteRecorded(deps, grantId, { action: 'grant.revoked', recorded: MODEL.Grant, ...deletion, ...(reason === undefined ? {} : { reason }) });
  await deps.invalidations.publish({ kind: 'grant', id: grantId });
}

/** oidc-provider revokes the grant's tokens but keeps the grant; audited on deletion, so concurrent revocations record one. */
export async function revokeAccessTokenAtEndpoint(deps: GrantRevocationDependencies, id: string): Promise<void> {
  const [row] = await deps.orm.em
    .getConnection()
    .execute<{ grant_id: string | null }[]>(`select grant_id from oidc_model where model = '${MODEL.AccessToken}' and id = ?`, [id]);
  const deletion = `delete from oidc_model where model = '${MODEL.AccessToken}' and id = ? returning model, expires_at`;
  if (row?.grant_id == null) {
    await deps.orm.em.getConnection().execute(deletion, [id]);
    return;
  }
  await deleteRecorded(deps, row.grant_id, { action: 'grant.tokens.revoked', recorded: MODEL.AccessToken, deletion, params: [id] });
  // The grant stays, but instances' answers about its tokens must go.
  await deps.invalidations.publish({ kind: 'grant', id: row.grant_id });
}
