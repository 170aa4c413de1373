import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import Provider, { errors, type Adapter, type AdapterPayload, type ClientMetadata, type InteractionResults, type KoaContextWithOIDC } from 'oidc-provider';
import type { SecretBox } from '../auth/client-secrets.ts';
import { OAuthClient } from '../db/entities/index.ts';
import { recordAuditPerRow, type AuditActor } from '../domain/audit.ts';
import { ISSUER_KEY, type Surface, type SurfaceRouter } from '../domain/domains/surfaces.ts';
import { browserSessionIndex } from '../domain/sessions/browser-sessions.ts';
import { endOtherSessions } from '../domain/sessions/end-sessions.ts';
import { forgetGrants, type InvalidationBus } from '../events/invalidations.ts';
import { isUuid } from '../ids.ts';
import { noteRequest } from '../log.ts';
import type { ClientCache } from './client-cache.ts';
import { answeringOverload, temporarilyUnavailable } from './overload.ts';
import { clientMetadata, gatehouseData } from './clients.ts';
import type { OrganizationStatusCache } from '../domain/organizations/status.ts';
import { sessionPolicyOf } from './session-lifetime.ts';
import { SPENT_INTERACTION_SECONDS } from '../domain/sign-in/session.ts';
import { holdsNul } from '../domain/validate.ts';
import { violatedUniqueConstraint } from '../domain/db-errors.ts';
import { DecidedDeviceCode, signInMethodsOf } from './overrides.ts';

/**
 * oidc-provider's storage in PostgreSQL, one statement per call outside any transaction. Each surface's adapter admits
 * only the clients the surface serves, and binds what yields tokens to its issuer, so it cannot be redeemed at another.
 */
export interface AdapterDependencies {
  readonly orm: MikroORM;
  readonly clientSecrets: SecretBox;
  readonly surfaces: SurfaceRouter;
  readonly clients: ClientCache;
  /** A deactivated organization's clients do not exist for the OP, but the console's. */
  readonly organizations: OrganizationStatusCache;
  /** A revoked grant's management API Bearer tokens die with it (src/auth/bearer-subject.ts). */
  readonly invalidations: InvalidationBus;
}

/** ISSUER_KEY in the payload; oidc-provider ignores unknown keys. Read on their surface only. */
const ISSUER_BOUND = new Set(['AuthorizationCode', 'RefreshToken', 'DeviceCode', 'AccessToken', 'BackchannelAuthenticationRequest']);

/** Where each sign-in was made, so that the end of its surface ends it (endSurfaceSignIns); a grant's: grantMadeAt. */
const ISSUER_RECORDED = new Set([...ISSUER_BOUND, 'Session']);

interface StoredRow {
  payload: AdapterPayload;
  consumed: number | null;
}

const SELECT = 'select payload, extract(epoch from consumed_at)::bigint as consumed from oidc_model';
const LIVE = '(expires_at is null or expires_at > now())';

/** RFC 8628 3.5: an expired device code is `expired_token` by id; by user code it stays absent, so a guess learns nothing. */
const READ_EXPIRED_BY_ID = new Set(['DeviceCode']);

/** Several sign-ins may be open for one code (overrides.ts): a save over a decided one writes nothing, so one wins. */
const UNDECIDED_DEVICE_CODE = `oidc_model.payload->>'accountId' is null and oidc_model.payload->>'error' is null and oidc_model.consumed_at is null
         and (oidc_model.expires_at is null or oidc_model.expires_at > now())`;

const POLLING_KEY = 'gatehousePolling';

/** oidc-provider drops keys it does not know: a save keeps ours (a device code's polling pace, unless it sets one; a
 *  grant's surface). */
const KEPT_KEY: Readonly<Record<string, string>> = { DeviceCode: POLLING_KEY, Grant: ISSUER_KEY };
const keptPayload = (key: string) => `jsonb_strip_nulls(jsonb_build_object('${key}', oidc_model.payload->'${key}')) || excluded.payload`;

/** A grant takes the issuer of its first code or token: the surface it was signed in on (the service's OP saves the grants
 *  of every surface's interactions, so its own save cannot tell). */
function grantMadeAt(payload: AdapterPayload, issuer: string): { cte: string; params: unknown[] } | undefined {
  if (typeof payload.grantId !== 'string') return undefined;
  return {
    cte: `made_at as (update oidc_model set payload = payload || jsonb_build_object('${ISSUER_KEY}', ?::text)
       where model = 'Grant' and id = ? and payload->>'${ISSUER_KEY}' is null)`,
    params: [issuer, payload.grantId],
  };
}

/** Set by migration 0064: the verification page finds a device by its user code alone, among every application's. */
const USER_CODE_KEY = 'oidc_model_user_code_key';

/** A user code already held (oidc-provider draws them at random): the device asks again and gets another. */
function refuseTakenUserCode(error: unknown): never {
  throw violatedUniqueConstraint(error) === USER_CODE_KEY ? temporarilyUnavailable('the user code drawn for this device is in use: ask again', error) : error;
}

class ClientAdapter implements Adapter {
  private readonly deps: AdapterDependencies;
  private readonly surface: Surface;

  constructor(deps: AdapterDependencies, surface: Surface) {
    this.deps = deps;
    this.surface = surface;
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (!isUuid(id)) return undefined;
    const metadata = await this.deps.clients.find(id, () => this.load(id));
    const owner = gatehouseData(metadata);
    if (metadata === undefined || owner === undefined) return undefined;
    // A deactivated organization's applications sign nobody in (but its console's operators).
    if (!(await this.deps.organizations.servesClients(this.deps.orm, owner.applicationId))) return undefined;
    noteRequest({ applicationId: owner.applicationId, ...(owner.tenantId === null ? {} : { tenantId: owner.tenantId }) });
    // Checked on every lookup: the cache is shared by all surfaces.
    return (await this.deps.surfaces.admits(this.surface, owner)) ? metadata : undefined;
  }

  private async load(id: string): Promise<ClientMetadata | undefined> {
    // Before any application scope exists the client_id is all the OP knows: looked up across applications by primary key.
    const client = await this.deps.orm.em.fork().findOne(OAuthClient, { id, revokedAt: null }, { filters: false });
    if (client === null) return undefined;
    const metadata = clientMetadata(client, this.deps.clientSecrets, new Date());
    // Shared by every request while cached: nobody may change it.
    return metadata === undefined ? undefined : Object.freeze(metadata);
  }

  // Dynamic registration is off.
  upsert(): Promise<void> {
    return Promise.reject(new Error('OAuth clients are managed through the management API'));
  }
  destroy(): Promise<void> {
    return Promise.reject(new Error('OAuth clients are managed through the management API'));
  }
  findByUserCode(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  findByUid(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  consume(): Promise<void> {
    return Promise.resolve();
  }
  revokeByGrantId(): Promise<void> {
    return Promise.resolve();
  }
}

class ModelAdapter implements Adapter {
  private readonly model: string;
  private readonly deps: AdapterDependencies;
  private readonly surface: Surface;
  private readonly issuer: string | undefined;
  private readonly bound: boolean;

  constructor(model: string, deps: AdapterDependencies, surface: Surface) {
    this.model = model;
    this.deps = deps;
    this.surface = surface;
    this.issuer = ISSUER_RECORDED.has(model) ? surface.issuer : undefined;
    this.bound = ISSUER_BOUND.has(model);
  }

  private get connection() {
    return this.deps.orm.em.getConnection();
  }

  private async one(where: string, value: string, expired: 'hidden' | 'read' = 'hidden'): Promise<AdapterPayload | undefined> {
    if (holdsNul(value)) return undefined;
    const live = expired === 'read' ? '' : ` and ${LIVE}`;
    const [row] = await this.connection.execute<StoredRow[]>(`${SELECT} where model = ? and ${where} = ?${live}`, [this.model, value]);
    if (row === undefined) return undefined;
    if (this.bound) {
      // Rows without a recorded issuer are the service's.
      const madeBy = (row.payload[ISSUER_KEY] as string | undefined) ?? this.deps.surfaces.service.issuer;
      if (madeBy !== this.issuer) return undefined;
    }
    return row.consumed === null ? row.payload : { ...row.payload, consumed: Number(row.consumed) };
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    if (holdsNul(payload)) throw new errors.InvalidRequest('request parameters must not contain NUL characters');
    const expiresAt = expiresIn === undefined ? null : new Date(Date.now() + expiresIn * 1000);
    if (this.model === 'ReplayDetection') return this.insertReplayMarker(id, payload, expiresAt);
    const clientId = typeof payload.clientId === 'string' && isUuid(payload.clientId) ? payload.clientId : null;
    const index =
      this.model === 'Session' && typeof payload.accountId === 'string' && typeof payload.uid === 'string' && expiresAt !== null
        ? browserSessionIndex({
            uid: payload.uid,
            accountId: payload.accountId,
            authorizations: Object.entries(payload.authorizations ?? {}).map(([clientId, { grantId }]) => ({ clientId, grantId })),
            methods: signInMethodsOf(payload),
            expiresAt,
            requestClientId: Provider.ctx?.oidc.client?.clientId,
          })
        : undefined;
    const spent = this.model === 'Interaction' ? spentInteractionMark(id, payload, expiresAt, this.surface) : undefined;
    const kept = KEPT_KEY[this.model];
    const madeAt = this.bound && this.issuer !== undefined ? grantMadeAt(payload, this.issuer) : undefined;
    const ctes = [index, spent, madeAt].flatMap((cte) => (cte === undefined ? [] : [cte]));
    // `application_id`: the client's, when known. A tenant's row's first save is a sign-in (`signed_in`), after which
    // singleSession ends the user's other sessions.
    const [row] = await this.connection.execute<{ model: string; signed_in?: { applicationId: string; tenantId: string | null } | null }[]>(
      `${ctes.length === 0 ? '' : `with ${ctes.map((cte) => cte.cte).join(',\n')}\n`}insert into oidc_model (model, id, application_id, payload, grant_id, user_code, uid, expires_at)
         values (?, ?, (select application_id from oauth_client where id = ?), ?::jsonb, ?, ?, ?, ?)
       on conflict (model, id) do update set application_id = excluded.application_id,
         payload = ${kept === undefined ? 'excluded.payload' : keptPayload(kept)},
         grant_id = excluded.grant_id, user_code = excluded.user_code, uid = excluded.uid, expires_at = excluded.expires_at${
           this.model === 'DeviceCode' ? `\n where ${UNDECIDED_DEVICE_CODE}` : ''
         }
       returning model${
         index === undefined
           ? ''
           : `, (select json_build_object('applicationId', s.application_id, 'tenantId', s.tenant_id) from session_index as s where s.inserted limit 1) as signed_in`
       }`,
      [
        ...ctes.flatMap((cte) => cte.params),
        this.model,
        id,
        clientId,
        JSON.stringify(this.issuer === undefined ? payload : { ...payload, [ISSUER_KEY]: this.issuer }),
        payload.grantId ?? null,
        payload.userCode ?? null,
        payload.uid ?? null,
        expiresAt,
      ],
    ).catch(refuseTakenUserCode);
    // Only a device code's save is guarded (its sign-in's grant: revokeUntakenDeviceGrant).
    if (row === undefined) throw new DecidedDeviceCode();
    const signedIn = row.signed_in ?? null;
    if (signedIn !== null && typeof payload.accountId === 'string' && typeof payload.uid === 'string' && sessionPolicyOf(Provider.ctx)?.singleSession === true) {
      await endSessionsBesides(this.deps, { ...signedIn, userId: payload.accountId, uid: payload.uid });
    }
  }

  /** RFC 7523 3: oidc-provider reads then saves the marker, so concurrent uses would all pass; here the insert decides. */
  private async insertReplayMarker(id: string, payload: AdapterPayload, expiresAt: Date | null): Promise<void> {
    const written = await this.connection.execute<{ id: string }[]>(
      `insert into oidc_model (model, id, payload, expires_at) values (?, ?, ?::jsonb, ?)
       on conflict (model, id) do update set payload = excluded.payload, expires_at = excluded.expires_at
         where oidc_model.expires_at is not null and oidc_model.expires_at <= now()
       returning id`,
      [this.model, id, JSON.stringify(payload), expiresAt],
    );
    if (written.length === 0) throw new errors.InvalidClientAuth('client assertion tokens must only be used once');
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.one('id', id, READ_EXPIRED_BY_ID.has(this.model) ? 'read' : 'hidden');
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.one('user_code', userCode);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.one('uid', uid);
  }

  /** Atomic: of concurrent redemptions exactly one wins; the loser is refused as a replay, and the grant revoked. */
  async consume(id: string): Promise<void> {
    const won = await this.connection.execute<{ grant_id: string | null }[]>(
      `update oidc_model set consumed_at = now() where model = ? and id = ? and consumed_at is null returning grant_id`,
      [this.model, id],
    );
    if (won.length > 0) return;
    const [row] = await this.connection.execute<{ grant_id: string | null }[]>(
      'select grant_id from oidc_model where model = ? and id = ?',
      [this.model, id],
    );
    if (row?.grant_id != null) await revokeGrant(this.deps, row.grant_id, 'with_tokens');
    throw new errors.InvalidGrant('grant already consumed');
  }

  async destroy(id: string): Promise<void> {
    // The OP revokes a grant by destroying it (a refresh token revoked or reused, a replayed code, a sign-out).
    if (this.model === 'Grant') return revokeGrant(this.deps, id, 'grant_only');
    const revokedAtEndpoint = this.model === 'AccessToken' && Provider.ctx?.oidc.route === 'revocation';
    if (revokedAtEndpoint) return revokeAccessTokenAtEndpoint(this.deps, id);
    const [gone] = await this.connection.execute<{ payload: { authorizations?: Record<string, { grantId?: string }> } }[]>(
      'delete from oidc_model where model = ? and id = ? returning payload',
      [this.model, id],
    );
    // Instances forget its tokens' validations, also of offline grants that outlive it.
    if (this.model === 'Session') {
      const grants = Object.values(gone?.payload.authorizations ?? {}).flatMap(({ grantId }) => (grantId === undefined ? [] : [grantId]));
      await forgetGrants(this.deps.invalidations, grants);
    }
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.connection.execute('delete from oidc_model where model = ? and grant_id = ?', [this.model, grantId]);
  }
}

/** What an interaction's address still tells once it is over (findSpentInteraction). */
const SPENT_INTERACTION = 'SpentInteraction';

export interface SpentInteraction {
  readonly clientId: string;
  readonly issuer: string;
}

/** Outlives the interaction by SPENT_INTERACTION_SECONDS: its client and surface only, nothing of the request or browser. */
function spentInteractionMark(uid: string, payload: AdapterPayload, expiresAt: Date | null, surface: Surface): { cte: string; params: unknown[] } | undefined {
  const clientId = payload.params?.['client_id'];
  if (typeof clientId !== 'string' || !isUuid(clientId)) return undefined;
  const mark: SpentInteraction = { clientId, issuer: surface.issuer };
  const expires = new Date((expiresAt?.getTime() ?? Date.now()) + SPENT_INTERACTION_SECONDS * 1000);
  return {
    cte: `spent as (insert into oidc_model (model, id, application_id, payload, expires_at)
       values ('${SPENT_INTERACTION}', ?, (select application_id from oauth_client where id = ?), ?::jsonb, ?) on conflict (model, id) do nothing)`,
    params: [uid, clientId, JSON.stringify(mark), expires],
  };
}

/** Undefined for a uid never issued. */
export async function findSpentInteraction(orm: MikroORM, uid: string): Promise<SpentInteraction | undefined> {
  if (holdsNul(uid)) return undefined;
  const [row] = await orm.em
    .getConnection()
    .execute<{ payload: SpentInteraction }[]>(`select payload from oidc_model where model = '${SPENT_INTERACTION}' and id = ? and ${LIVE}`, [uid]);
  return row?.payload;
}

/** `singleSession` (src/domain/sessions/end-sessions.ts), the user as the actor; instances then forget the user's tokens. */
async function endSessionsBesides(
  deps: AdapterDependencies,
  session: { applicationId: string; tenantId: string | null; userId: string; uid: string },
): Promise<void> {
  const actor: AuditActor = {
    applicationId: session.applicationId,
    tenantId: session.tenantId,
    requestId: opRequestId(Provider.ctx),
    principal: { actor: { type: 'user', id: session.userId } },
  };
  const ended = await endOtherSessions(deps.orm.em.fork(), actor, session.userId, session.uid);
  if (ended.length > 0) await deps.invalidations.publish({ kind: 'user', id: session.userId });
}

/** Read from the OP's request context; `revocation` is RFC 7009's endpoint. */
type GrantRevocationReason = 'revocation' | 'refresh_token_reuse' | 'code_replay' | 'logout' | 'tenant_switch' | 'device_code_used';

const BY_THE_USER: ReadonlySet<GrantRevocationReason> = new Set(['logout', 'tenant_switch', 'device_code_used']);

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
    .execute<unknown[]>(`select 1 from oidc_model where model = 'DeviceCode' and id = ? and grant_id = ?`, [deviceCodeId, grantId]);
  if (taken.length === 0) await revokeGrant(deps, grantId, 'with_tokens', 'device_code_used');
}

function revocationReason(ctx: KoaContextWithOIDC | undefined): GrantRevocationReason {
  if (ctx?.oidc.route === 'end_session_confirm') return 'logout';
  if (ctx?.oidc.route !== 'token') return 'revocation';
  return ctx.oidc.params?.['grant_type'] === 'refresh_token' ? 'refresh_token_reuse' : 'code_replay';
}

/** routes.ts copies Fastify's X-Request-Id onto the OP's answer. */
export const opRequestId = (ctx: KoaContextWithOIDC | undefined): string => ctx?.response.get('x-request-id') || randomUUID();

interface GrantFacts {
  readonly applicationId: string;
  readonly clientId: string;
  readonly userId: string;
  readonly tenantId: string | null;
}

/** Undefined when gone or expired (an expiry is no revocation), or of no application. */
async function liveGrantFacts(deps: GrantRevocationDependencies, grantId: string): Promise<GrantFacts | undefined> {
  const [row] = await deps.orm.em.getConnection().execute<{ application_id: string; client_id: string; user_id: string; tenant_id: string | null }[]>(
    `select g.application_id, g.payload->>'clientId' as client_id, g.payload->>'accountId' as user_id, t.payload->>'tenantId' as tenant_id
       from oidc_model as g left join oidc_model as t on t.model = 'GrantTenant' and t.id = g.id
      where g.model = 'Grant' and g.id = ? and g.application_id is not null and (g.expires_at is null or g.expires_at > now())`,
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
        from gone where gone.model = ? and (gone.expires_at is null or gone.expires_at > now()))`,
    params: [...revocation.params, grantId, JSON.stringify(after), revocation.recorded],
  });
}

/** `grant_only`: the OP revokes its tokens itself; `with_tokens`: a replay the adapter detects. */
async function revokeGrant(deps: GrantRevocationDependencies, grantId: string, rows: 'grant_only' | 'with_tokens', reason?: GrantRevocationReason): Promise<void> {
  const deletion =
    rows === 'grant_only'
      ? { deletion: `delete from oidc_model where model = 'Grant' and id = ? returning model, expires_at`, params: [grantId] }
      : { deletion: `delete from oidc_model where grant_id = ? or (model = 'Grant' and id = ?) returning model, expires_at`, params: [grantId, grantId] };
  await deleteRecorded(deps, grantId, { action: 'grant.revoked', recorded: 'Grant', ...deletion, ...(reason === undefined ? {} : { reason }) });
  await deps.invalidations.publish({ kind: 'grant', id: grantId });
}

/** oidc-provider revokes the grant's tokens but keeps the grant; audited on deletion, so concurrent revocations record one. */
async function revokeAccessTokenAtEndpoint(deps: AdapterDependencies, id: string): Promise<void> {
  const [row] = await deps.orm.em
    .getConnection()
    .execute<{ grant_id: string | null }[]>(`select grant_id from oidc_model where model = 'AccessToken' and id = ?`, [id]);
  const deletion = `delete from oidc_model where model = 'AccessToken' and id = ? returning model, expires_at`;
  if (row?.grant_id == null) {
    await deps.orm.em.getConnection().execute(deletion, [id]);
    return;
  }
  await deleteRecorded(deps, row.grant_id, { action: 'grant.tokens.revoked', recorded: 'AccessToken', deletion, params: [id] });
  // The grant stays, but instances' answers about its tokens must go.
  await deps.invalidations.publish({ kind: 'grant', id: row.grant_id });
}

/** Epoch seconds. */
const grantExpiry = (grant: { exp?: number | undefined; expiration: number }) => grant.exp ?? Math.floor(Date.now() / 1000) + grant.expiration;

export type GrantRevocationDependencies = Pick<AdapterDependencies, 'orm' | 'invalidations'>;

export interface GrantPlace {
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly inBrowserSession: boolean;
}

/** A session keeps one grant per client: the replaced one ends with its tokens, or they would outlive every listing. */
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
  const payload = { tenantId: place.tenantId, browserSession: place.inBrowserSession };
  await orm.em.getConnection().execute(
    `insert into oidc_model (model, id, application_id, payload, grant_id, expires_at) values ('GrantTenant', ?, ?, ?::jsonb, ?, ?)
     on conflict (model, id) do update set payload = excluded.payload, expires_at = excluded.expires_at`,
    [grant.id, grant.applicationId, JSON.stringify(payload), grant.id, new Date(exp * 1000)],
  );
}

export async function grantTenant(orm: MikroORM, grantId: string): Promise<string | null> {
  const [row] = await orm.em
    .getConnection()
    .execute<{ tenant_id: string | null }[]>(
      `select payload->>'tenantId' as tenant_id from oidc_model where model = 'GrantTenant' and id = ? and ${LIVE}`,
      [grantId],
    );
  return row?.tenant_id ?? null;
}

/** RFC 8628 3.5 slow_down, on the code's row so every instance paces alike; the row lock orders concurrent polls. */
export async function recordDeviceCodePoll(orm: MikroORM, id: string, interval: number, slowDownBy: number): Promise<'in_time' | 'too_soon'> {
  const [row] = await orm.em.getConnection().execute<{ too_soon: boolean }[]>(
    `with previous as (
       select id, coalesce((payload #>> '{${POLLING_KEY},interval}')::int, ?) as interval,
              (payload #>> '{${POLLING_KEY},at}')::float8 as at
         from oidc_model where model = 'DeviceCode' and id = ? for update
     ), paced as (
       select id, interval, coalesce(at > extract(epoch from clock_timestamp()) - interval, false) as too_soon from previous
     )
     update oidc_model set payload = payload || jsonb_build_object('${POLLING_KEY}', jsonb_build_object(
         'at', extract(epoch from clock_timestamp()),
         'interval', paced.interval + case when paced.too_soon then ? else 0 end))
       from paced where oidc_model.model = 'DeviceCode' and oidc_model.id = paced.id
     returning paced.too_soon`,
    [interval, id, slowDownBy],
  );
  return row?.too_soon === true ? 'too_soon' : 'in_time';
}

/** They already read as absent: this only reclaims space. */
export async function sweepExpiredModels(orm: MikroORM, limit = 1000): Promise<number> {
  const deleted = await orm.em.getConnection().execute<{ id: string }[]>(
    `delete from oidc_model where (model, id) in (select model, id from oidc_model where expires_at < now() limit ? for update skip locked)
     returning id`,
    [limit],
  );
  return deleted.length;
}

export function createAdapterFactory(deps: AdapterDependencies, surface: Surface): (model: string) => Adapter {
  return (model) => answeringOverload(model === 'Client' ? new ClientAdapter(deps, surface) : new ModelAdapter(model, deps, surface));
}
