import type { MikroORM } from '@mikro-orm/postgresql';
import Provider, { errors, type Adapter, type AdapterPayload, type ClientMetadata } from 'oidc-provider';
import type { SecretBox } from '../auth/client-secrets.ts';
import { OAuthClient } from '../db/entities/index.ts';
import { ISSUER_KEY, liveRow, MODEL, PAYLOAD, POLLING_KEY, type SavedWith, type SessionAuthorizations } from '../db/oidc-model.ts';
import type { Surface, SurfaceRouter } from '../domain/domains/surfaces.ts';
import { browserSessionIndex } from '../domain/sessions/browser-sessions.ts';
import { forgetGrants, type InvalidationBus } from '../events/invalidations.ts';
import { isUuid } from '../ids.ts';
import { noteRequest } from '../observability/log.ts';
import type { ClientCache } from './client-cache.ts';
import { answeringOverload, temporarilyUnavailable } from './overload.ts';
import { clientMetadata, gatehouseData } from './clients.ts';
import type { OrganizationStatusCache } from '../domain/organizations/status.ts';
import { holdsNul } from '../domain/validate.ts';
import { violatedUniqueConstraint } from '../domain/db-errors.ts';
import { DecidedDeviceCode, signInMethodsOf } from './overrides.ts';
import { revokeAccessTokenAtEndpoint, revokeGrant } from './grant-revocation.ts';
import { endSessionsBesides } from './single-session.ts';
import { spentInteractionMark } from './spent-interactions.ts';

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
const ISSUER_BOUND = new Set<string>([MODEL.AuthorizationCode, MODEL.RefreshToken, MODEL.DeviceCode, MODEL.AccessToken, MODEL.BackchannelAuthenticationRequest]);

/** Where each sign-in was made, so that the end of its surface ends it (endSurfaceSignIns); a grant's: grantMadeAt. */
const ISSUER_RECORDED = new Set([...ISSUER_BOUND, MODEL.Session]);

interface StoredRow {
  payload: AdapterPayload;
  consumed: number | null;
}

const SELECT = 'select payload, extract(epoch from consumed_at)::bigint as consumed from oidc_model';

/** RFC 8628 3.5: an expired device code is `expired_token` by id; by user code it stays absent, so a guess learns nothing. */
const READ_EXPIRED_BY_ID = new Set<string>([MODEL.DeviceCode]);

/** Several sign-ins may be open for one code (overrides.ts): a save over a decided one writes nothing, so one wins. */
const UNDECIDED_DEVICE_CODE = `oidc_model.payload->>'${PAYLOAD.accountId}' is null and oidc_model.payload->>'${PAYLOAD.error}' is null
         and oidc_model.consumed_at is null and ${liveRow('oidc_model')}`;

/** oidc-provider drops keys it does not know: a save keeps ours (a device code's polling pace, unless it sets one; a
 *  grant's surface). */
const KEPT_KEY: Readonly<Record<string, string>> = { [MODEL.DeviceCode]: POLLING_KEY, [MODEL.Grant]: ISSUER_KEY };
const keptPayload = (key: string) => `jsonb_strip_nulls(jsonb_build_object('${key}', oidc_model.payload->'${key}')) || excluded.payload`;

/** A grant takes the issuer of its first code or token: the surface it was signed in on (the service's OP saves the grants
 *  of every surface's interactions, so its own save cannot tell). */
function grantMadeAt(payload: AdapterPayload, issuer: string): SavedWith | undefined {
  if (typeof payload.grantId !== 'string') return undefined;
  return {
    cte: `made_at as (update oidc_model set payload = payload || jsonb_build_object('${ISSUER_KEY}', ?::text)
       where model = '${MODEL.Grant}' and id = ? and payload->>'${ISSUER_KEY}' is null)`,
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
    const live = expired === 'read' ? '' : ` and ${liveRow()}`;
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
    if (this.model === MODEL.ReplayDetection) return this.insertReplayMarker(id, payload, expiresAt);
    const clientId = typeof payload.clientId === 'string' && isUuid(payload.clientId) ? payload.clientId : null;
    const index =
      this.model === MODEL.Session && typeof payload.accountId === 'string' && typeof payload.uid === 'string' && expiresAt !== null
        ? browserSessionIndex({
            uid: payload.uid,
            accountId: payload.accountId,
            authorizations: Object.entries(payload.authorizations ?? {}).map(([clientId, { grantId }]) => ({ clientId, grantId })),
            methods: signInMethodsOf(payload),
            expiresAt,
            requestClientId: Provider.ctx?.oidc.client?.clientId,
          })
        : undefined;
    const spent = this.model === MODEL.Interaction ? spentInteractionMark(id, payload, expiresAt, this.surface) : undefined;
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
           this.model === MODEL.DeviceCode ? `\n where ${UNDECIDED_DEVICE_CODE}` : ''
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
    if (signedIn !== null && typeof payload.accountId === 'string' && typeof payload.uid === 'string') {
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
    if (this.model === MODEL.Grant) return revokeGrant(this.deps, id, 'grant_only');
    const revokedAtEndpoint = this.model === MODEL.AccessToken && Provider.ctx?.oidc.route === 'revocation';
    if (revokedAtEndpoint) return revokeAccessTokenAtEndpoint(this.deps, id);
    const [gone] = await this.connection.execute<{ payload: { authorizations?: SessionAuthorizations } }[]>(
      'delete from oidc_model where model = ? and id = ? returning payload',
      [this.model, id],
    );
    // Instances forget its tokens' validations, also of offline grants that outlive it.
    if (this.model === MODEL.Session) {
      const grants = Object.values(gone?.payload.authorizations ?? {}).flatMap(({ grantId }) => (grantId === undefined ? [] : [grantId]));
      await forgetGrants(this.deps.invalidations, grants);
    }
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.connection.execute('delete from oidc_model where model = ? and grant_id = ?', [this.model, grantId]);
  }
}

export function createAdapterFactory(deps: AdapterDependencies, surface: Surface): (model: string) => Adapter {
  return (model) => answeringOverload(model === MODEL.Client ? new ClientAdapter(deps, surface) : new ModelAdapter(model, deps, surface));
}
