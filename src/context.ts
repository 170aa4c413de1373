import type { EntityManager } from '@mikro-orm/postgresql';
import { PermissionSet } from './auth/permissions.ts';
import type { Principal } from './auth/principal.ts';
import { Application, Tenant } from './db/entities/index.ts';
import { inTurn, lockedFirst } from './db/advisory-lock.ts';
import { APPLICATION_FILTER, TENANT_FILTER } from './db/owned.ts';
import { createLoaders, type Loaders } from './domain/loaders.ts';
import type { RequestTransaction } from './db/request-transaction.ts';
import { GatehouseError } from './errors.ts';
import { publishingAfterCommit } from './events/invalidations.ts';
import type { Services } from './services.ts';

/**
 * The resolved target of an operation: one application and at most one tenant, with an EntityManager whose
 * tenancy filters carry exactly that scope, and the request's loaders for it. Built once per (application,
 * tenant) pair per request; everything below reads scope from here.
 */
export interface Scope {
  readonly requestId: string;
  readonly principal: Principal;
  readonly applicationId: string;
  /** null: application-wide. */
  readonly tenantId: string | null;
  /** What the credentials may do here: what they hold in the scope's tenant (Principal.permissionsIn). */
  readonly permissions: PermissionSet;
  readonly em: EntityManager;
  readonly loaders: Loaders;
  readonly services: Services;
  /** The scope's application (loaded once). */
  readonly application: () => Promise<Application>;
  /** Throws 403 `forbidden` when the scope is one tenant: the operation is about the whole application. */
  requireApplicationWide(): void;
  /**
   * Runs `work` in a transaction on the scope's EntityManager: where every write begins. Under an Idempotency-Key it is
   * a savepoint of the request's transaction (src/db/request-transaction.ts), which commits with the stored answer.
   * With `lock`, the transaction takes those advisory locks first, and is begun in this process's turns at them (inTurn),
   * which under an Idempotency-Key last until the request's transaction ends, as its locks do.
   */
  transactional<T>(work: (em: EntityManager) => Promise<T>, lock?: string | readonly string[]): Promise<T>;
}

/** Where an operation says it acts: the path's application and tenant (spec: Authentication, rules 3 and 4). */
export interface ScopeTarget {
  applicationId?: string | null | undefined;
  tenantId?: string | null | undefined;
}

export interface RequestContext {
  readonly requestId: string;
  readonly principal: Principal;
  readonly services: Services;
  scope(target?: ScopeTarget): Promise<Scope>;
  /** A subscription's (src/graphql/subscriptions.ts): the refusal its credentials get now, read from the database. */
  readonly refusalFromDatabase?: () => Promise<GatehouseError | undefined>;
}

/** How a request's scopes reach the database: forks of the ORM's EntityManager, or of its request transaction. */
interface Writes {
  readonly services: Services;
  fork(): EntityManager;
  readonly transaction: RequestTransaction | undefined;
}

/**
 * The context of one authenticated request (server.ts authenticates before rate limiting, then builds this). With
 * `transaction`, its writes go there, and its invalidations are published once that commits.
 */
export function createRequestContext(services: Services, requestId: string, principal: Principal, transaction?: RequestTransaction): RequestContext {
  const scopes = new Map<string, Promise<Scope>>();
  const writes: Writes =
    transaction === undefined
      ? { services, fork: () => services.orm.em.fork(), transaction }
      : {
          services: {
            ...services,
            invalidations: publishingAfterCommit(services.invalidations, transaction),
            // The worker would find nothing before the request's transaction commits.
            outbox: { wake: () => void transaction.afterCommit(() => Promise.resolve(services.outbox.wake())) },
          },
          fork: () => transaction.fork(),
          transaction,
        };
  return {
    requestId,
    principal,
    services: writes.services,
    scope(target = {}) {
      const key = `${target.applicationId ?? ''}|${target.tenantId ?? ''}`;
      let scope = scopes.get(key);
      if (scope === undefined) {
        scope = settleScope(writes, requestId, principal, target);
        scopes.set(key, scope);
      }
      return scope;
    },
  };
}

async function settleScope(
  writes: Writes,
  requestId: string,
  principal: Principal,
  target: ScopeTarget,
): Promise<Scope> {
  // An application other than the credentials' own is indistinguishable from an absent one (named as the path does).
  if (target.applicationId != null && target.applicationId !== principal.applicationId) {
    throw new GatehouseError('not_found', 'Application not found', { field: 'appId' });
  }
  const applicationId = principal.applicationId;
  const pathTenant = target.tenantId ?? null;
  const tenantId = scopeTenant(principal, pathTenant);

  const database = scopedDatabase(() => writes.fork(), applicationId, tenantId);
  let application: Promise<Application> | undefined;
  const loadApplication = () => {
    application ??= database().em.findOneOrFail(Application, { id: applicationId }, {
      failHandler: () => new GatehouseError('unauthenticated', 'The credentials’ application no longer exists'),
    });
    return application;
  };
  if (pathTenant !== null && principal.tenantId === null) {
    const tenant = await database().em.findOne(Tenant, { id: pathTenant });
    if (tenant === null) throw new GatehouseError('not_found', 'Tenant not found', { field: 'tenantId' });
  }
  const { services, transaction } = writes;
  const permissions = await principal.permissionsIn(tenantId);
  return new RequestScope({ requestId, principal, applicationId, services, application: loadApplication, transaction, permissions }, tenantId, database);
}

/**
 * The tenant a request acts in (spec: Authentication, rules 3-4): the path's, which tenant-bound credentials must
 * match (else 403), else the credentials' own (null: application-wide). The one rule, for the scope and for the
 * permission gate, which checks what the credentials hold in that tenant before the scope is settled.
 */
export function scopeTenant(principal: Principal, pathTenant: string | null): string | null {
  if (pathTenant !== null && principal.tenantId !== null && pathTenant !== principal.tenantId) {
    throw new GatehouseError('forbidden', 'The credentials are for another tenant');
  }
  return pathTenant ?? principal.tenantId;
}

interface ScopeDatabase {
  readonly em: EntityManager;
  readonly loaders: Loaders;
}

/**
 * A scope's EntityManager (its filters carrying one application and at most one tenant) and loaders, forked at first
 * use: an answer from the instance's caches reads no SQL.
 */
function scopedDatabase(fork: () => EntityManager, applicationId: string, tenantId: string | null): () => ScopeDatabase {
  let database: ScopeDatabase | undefined;
  return () => {
    if (database === undefined) {
      const em = fork();
      em.setFilterParams(APPLICATION_FILTER, { id: applicationId });
      em.setFilterParams(TENANT_FILTER, { id: tenantId });
      database = { em, loaders: createLoaders(em) };
    }
    return database;
  };
}

/** No grant at all: an end user's request may read what the hosted pages show, never manage anything. */
const NO_PERMISSIONS = new PermissionSet([]);

/** What sent an end user to a hosted page: an OAuth client's sign-in, or an invitation's link, which no client opened. */
export type PageOpener = { readonly type: 'oauth_client'; readonly id: string } | { readonly type: 'invitation'; readonly id: string };

/**
 * The scope of an end user on the hosted pages (sign-in, sign-up, an invitation's), who has no credentials yet: the
 * application of what opened the page and the sign-in's tenant (null: none chosen yet), with no management permission.
 * The caller has established both ids: nothing is checked here.
 */
export function endUserScope(
  services: Services,
  requestId: string,
  /** `actor`: who the audit records name; by default what opened the page. */
  target: { opener: PageOpener; applicationId: string; tenantId: string | null; actor?: Principal['actor'] },
): Scope {
  const { opener } = target;
  return hostedPageScope(services, requestId, target, `${opener.type}:${opener.id}`, target.actor ?? opener);
}

/** Reads the configuration a surface's pages show (surface-settings.ts), on no one's behalf: it records nothing. */
export const surfaceReaderScope = (services: Services, requestId: string, applicationId: string, tenantId: string | null): Scope =>
  hostedPageScope(services, requestId, { applicationId, tenantId }, `surface:${applicationId}`, { type: 'system', id: 'surface-settings' });

function hostedPageScope(
  services: Services,
  requestId: string,
  { applicationId, tenantId }: { applicationId: string; tenantId: string | null },
  credentialId: string,
  actor: Principal['actor'],
): Scope {
  const principal: Principal = {
    credentialId,
    applicationId,
    tenantId,
    subjects: [],
    permissionsIn: async () => NO_PERMISSIONS,
    actor,
    apiKeyId: null,
    apiKeyExpiresAt: null,
    // The hosted pages are reached through the OAuth client, which a deactivated organization's OP no longer finds.
    organizationDeactivated: false,
  };
  const database = scopedDatabase(() => services.orm.em.fork(), applicationId, tenantId);
  let application: Promise<Application> | undefined;
  const loadApplication = () => {
    application ??= database().em.findOneOrFail(Application, { id: applicationId }, {
      failHandler: () => new GatehouseError('not_found', 'Application not found'),
    });
    return application;
  };
  return new RequestScope(
    { requestId, principal, applicationId, services, application: loadApplication, transaction: undefined, permissions: NO_PERMISSIONS },
    tenantId,
    database,
  );
}

/** A scope but its tenant and database; `transaction`: the request's, begun by the first write. */
type ScopeBase = Omit<Scope, 'tenantId' | 'requireApplicationWide' | 'em' | 'loaders' | 'transactional'> & {
  readonly transaction: RequestTransaction | undefined;
};

/** A class: an object literal with getters is built property by property, per request. */
class RequestScope implements Scope {
  readonly requestId: string;
  readonly principal: Principal;
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly permissions: PermissionSet;
  readonly services: Services;
  readonly application: () => Promise<Application>;
  readonly transaction: RequestTransaction | undefined;
  readonly #database: () => ScopeDatabase;

  constructor(base: ScopeBase, tenantId: string | null, database: () => ScopeDatabase) {
    this.requestId = base.requestId;
    this.principal = base.principal;
    this.applicationId = base.applicationId;
    this.tenantId = tenantId;
    this.permissions = base.permissions;
    this.services = base.services;
    this.application = base.application;
    this.transaction = base.transaction;
    this.#database = database;
  }

  async transactional<T>(work: (em: EntityManager) => Promise<T>, lock?: string | readonly string[]): Promise<T> {
    const begin = async () => {
      await this.transaction?.begin();
      return this.em.transactional(lock === undefined ? work : lockedFirst(lock, work));
    };
    return lock === undefined ? begin() : inTurn(lock, begin, this.transaction?.turns);
  }

  get em(): EntityManager {
    return this.#database().em;
  }

  get loaders(): Loaders {
    return this.#database().loaders;
  }

  requireApplicationWide(): void {
    if (this.tenantId !== null) throw new GatehouseError('forbidden', 'This operation is not available to a tenant scope');
  }
}

/** The scope on a write's transaction `em`, with the application row that transaction read. */
export function scopeInTransaction(scope: Scope, em: EntityManager, application: Application): Scope {
  const database = { em, loaders: createLoaders(em) };
  return new RequestScope({ ...scopeBase(scope), application: () => Promise.resolve(application) }, scope.tenantId, () => database);
}

function scopeBase(scope: Scope): ScopeBase {
  if (!(scope instanceof RequestScope)) throw new Error('every scope is a RequestScope');
  const { requestId, principal, applicationId, services, application, transaction, permissions } = scope;
  return { requestId, principal, applicationId, services, application, transaction, permissions };
}

/**
 * An application-wide scope narrowed to one of its tenants for reading, sharing the EntityManager and the loaders
 * so that reading N tenants' effective settings batches into constant statements. Only for a tenant the scope
 * already reaches (one it listed); a tenant scope may narrow only to itself.
 */
export function narrowToTenant(scope: Scope, tenantId: string): Scope {
  if (scope.tenantId !== null && scope.tenantId !== tenantId) {
    throw new GatehouseError('forbidden', 'The credentials are for another tenant');
  }
  return new RequestScope(scopeBase(scope), tenantId, () => scope);
}
