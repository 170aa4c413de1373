import type { EntityManager } from '@mikro-orm/postgresql';
import { PermissionSet } from './auth/permissions.ts';
import type { Principal } from './auth/principal.ts';
import { Application, Tenant } from './db/entities/index.ts';
import { inTurn, lockedFirst } from './db/advisory-lock.ts';
import { APPLICATION_FILTER, TENANT_FILTER } from './db/owned.ts';
import { clearTenant, createLoaders, type Loaders } from './domain/loaders.ts';
import type { RequestTransaction } from './db/request-transaction.ts';
import { GatehouseError } from './errors.ts';
import { changesOf, collectChanges } from './events/changes.ts';
import { publishingAfterCommit, type Invalidation } from './events/invalidations.ts';
import type { DomainServices, Services } from './services.ts';

/** Tenancy filters carry exactly this scope; built once per (application, tenant) per request. */
export interface Scope {
  readonly requestId: string;
  readonly principal: Principal;
  readonly applicationId: string;
  /** null: application-wide. */
  readonly tenantId: string | null;
  /** What the credentials hold in the scope's tenant (Principal.permissionsIn). */
  readonly permissions: PermissionSet;
  readonly em: EntityManager;
  readonly loaders: Loaders;
  readonly services: DomainServices;
  readonly application: () => Promise<Application>;
  /** Throws 403 `forbidden` when the scope is one tenant. */
  requireApplicationWide(): void;
  /**
   * Where every write begins. Under an Idempotency-Key, a savepoint of the request's transaction, which commits with the
   * stored answer. `lock`: advisory locks taken first, in this process's turns (inTurn).
   */
  transactional<T>(work: (em: EntityManager) => Promise<T>, lock?: string | readonly string[]): Promise<T>;
}

/** Spec: Authentication, rules 3 and 4. */
export interface ScopeTarget {
  applicationId?: string | null | undefined;
  tenantId?: string | null | undefined;
}

export interface RequestContext {
  readonly requestId: string;
  readonly principal: Principal;
  readonly services: Services;
  scope(target?: ScopeTarget): Promise<Scope>;
  /** A subscription's (src/graphql/subscriptions.ts): its credentials as they stand now, read from the database, or
   *  their refusal. */
  readonly authorizedFromDatabase?: () => Promise<Principal | GatehouseError>;
  /** A subscription's place, for its transport to hand its client (over SSE, a heartbeat's `id`). */
  readonly reached?: (token: string) => void;
}

interface Writes {
  readonly services: Services;
  fork(): EntityManager;
  readonly transaction: RequestTransaction | undefined;
}

/** Built after authentication. With `transaction`, its writes go there, and its invalidations are published once that commits. */
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
  // Another application is indistinguishable from an absent one.
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
 * Spec: Authentication, rules 3-4: the path's, which tenant-bound credentials must match (else 403), else theirs. The
 * one rule for the scope and the permission gate, which checks before the scope is settled.
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

/** Forked at first use: an answer from the instance's caches reads no SQL. */
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

/** An end user may read what the hosted pages show, never manage anything. */
const NO_PERMISSIONS = new PermissionSet([]);

export type PageOpener = { readonly type: 'oauth_client'; readonly id: string } | { readonly type: 'invitation'; readonly id: string };

/**
 * An end user with no credentials yet, no management permission (tenant null: none chosen yet). The caller has checked
 * both ids.
 */
export function endUserScope(
  services: DomainServices,
  requestId: string,
  /** `actor` defaults to what opened the page. */
  target: { opener: PageOpener; applicationId: string; tenantId: string | null; actor?: Principal['actor'] },
): Scope {
  const { opener } = target;
  return hostedPageScope(services, requestId, target, `${opener.type}:${opener.id}`, target.actor ?? opener);
}

/** On no one's behalf: it records nothing. */
export const surfaceReaderScope = (services: DomainServices, requestId: string, applicationId: string, tenantId: string | null): Scope =>
  hostedPageScope(services, requestId, { applicationId, tenantId }, `surface:${applicationId}`, { type: 'system', id: 'surface-settings' });

function hostedPageScope(
  services: DomainServices,
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
    credentialRecords: [],
    // Reached through the OAuth client, which a deactivated organization's OP does not find.
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

/** `transaction`: the request's, begun by the first write. */
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
  readonly services: DomainServices;
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
    const outer = changesOf(this.em);
    const changes = outer ?? new Map<string, Invalidation>();
    const announcing = (em: EntityManager) => {
      collectChanges(em, changes);
      return work(em);
    };
    const begin = async () => {
      await this.transaction?.begin();
      return this.em.transactional(lock === undefined ? announcing : lockedFirst(lock, announcing));
    };
    const result = await (lock === undefined ? begin() : inTurn(lock, begin, this.transaction?.turns));
    if (outer === undefined) await this.#publish(changes.values());
    return result;
  }

  /** Committed: this request's loaders and every instance's caches forget what changed. */
  async #publish(changes: Iterable<Invalidation>): Promise<void> {
    for (const change of changes) {
      if (change.kind === 'application') clearTenant(this.loaders, null);
      if (change.kind === 'tenant') clearTenant(this.loaders, change.id);
      await this.services.invalidations.publish(change);
    }
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
 * Shares the EntityManager and loaders, so reading N tenants' settings batches into constant statements. Only for a
 * tenant the scope already reaches; a tenant scope may narrow only to itself.
 */
export function narrowToTenant(scope: Scope, tenantId: string): Scope {
  if (scope.tenantId !== null && scope.tenantId !== tenantId) {
    throw new GatehouseError('forbidden', 'The credentials are for another tenant');
  }
  return new RequestScope(scopeBase(scope), tenantId, () => scope);
}
