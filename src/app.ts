import { samlSignOut } from './domain/sign-in/saml-logout.ts';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import { ApiKeyCache } from './auth/api-key-cache.ts';
import { SecretBox } from './auth/client-secrets.ts';
import { shareArgon2Among } from './auth/password-hash.ts';
import { SigningKeyStore } from './auth/signing-keys.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database, type DatabaseOptions } from './db/orm.ts';
import { AuditRetentionJob } from './domain/audit/retention.ts';
import { DomainRecheckJob } from './domain/domains/recheck.ts';
import { AuditWaker } from './domain/audit/stream.ts';
import { TokenEventWriter } from './domain/audit/auth-events.ts';
import { SurfaceRouter } from './domain/domains/surfaces.ts';
import { OutboxWorker } from './domain/email/deliver.ts';
import { DeferredMailJob } from './domain/email/deferred-mail.ts';
import { CursorCodec } from './domain/pagination.ts';
import { createInvalidationBus, type InvalidationBus } from './events/invalidations.ts';
import { RefusalTiming } from './domain/sign-in/refusal-timing.ts';
import { createSurfaceSettingsCache, surfaceLook, surfaceSettings as settingsOfSurface } from './domain/sign-in/surface-settings.ts';
import { SessionValidationCache } from './domain/sessions/validation-cache.ts';
import { createClientCache } from './oidc/client-cache.ts';
import type { SignInRules } from './oidc/configuration.ts';
import { OidcProvider } from './oidc/provider.ts';
import { StorageSweepJob } from './oidc/storage-sweep.ts';
import { admitSignIn, resolveTarget } from './domain/sign-in/sign-in.ts';
import { poolMfaPolicy, poolSessionPolicy } from './domain/sign-in/session.ts';
import { ReadCache } from './rest/read-cache.ts';
import { watchResources } from './observability/metrics.ts';
import { createServer, type LogDestination, type Server } from './server.ts';
import type { Services } from './services.ts';

export interface Gatehouse {
  readonly services: Services;
  readonly server: Server;
  readonly database: Database;
  /** Once the timed jobs' runs under way (an instance starts with some) have ended. */
  jobsSettled(): Promise<void>;
  /** Stops taking requests, lets in-flight ones finish, then closes Redis and the database. */
  close(): Promise<void>;
}

/** A named random secret shared by every instance through the database (created once, race-free). */
async function serviceSecret(em: EntityManager, name: string): Promise<string> {
  const connection = em.getConnection();
  await connection.execute('insert into service_secret (name, value) values (?, ?) on conflict do nothing', [
    name,
    randomBytes(32).toString('base64url'),
  ]);
  const [row] = await connection.execute<{ value: string }[]>('select value from service_secret where name = ?', [name]);
  if (row === undefined) throw new Error(`service secret ${name} is missing`);
  return row.value;
}

/** How long a starting instance waits for Redis's first answer before it listens anyway (counting its rate limits alone). */
const REDIS_START_WAIT_MS = 3_000;

/**
 * Connects Redis and the invalidation subscription, waiting at most REDIS_START_WAIT_MS for the first attempt of each:
 * an instance that listens subscribed hears every invalidation published after it serves.
 */
async function connectRedis(redis: Redis, invalidations: InvalidationBus): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, REDIS_START_WAIT_MS)));
  const client = redis.connect().catch(() => undefined);
  await Promise.race([Promise.all([client, invalidations.connect()]), bound]);
  clearTimeout(timer);
}

/**
 * Which connections carry a request or a WebSocket, so that a shutdown can close the others at once: `server.close()`
 * closes idle keep-alive connections but not those that never carried one (pre-opened), which would hold it for 60 s.
 */
function trackConnections(server: HttpServer): { closeIdle(): void } {
  const requests = new Map<Socket, number>();
  let closing = false;
  const closeIfIdle = (socket: Socket) => {
    if ((requests.get(socket) ?? 0) > 0 || socket.destroyed) return;
    // An answer may still be on its way out: let it go first.
    if (socket.writableLength > 0) socket.end(() => socket.destroy());
    else socket.destroy();
  };
  server.on('connection', (socket: Socket) => {
    requests.set(socket, 0);
    socket.once('close', () => requests.delete(socket));
    // Accepted while the server stops listening: it has no request yet.
    if (closing) closeIfIdle(socket);
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    requests.set(socket, (requests.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (requests.get(socket) ?? 1) - 1;
      if (requests.has(socket)) requests.set(socket, left);
      if (closing) closeIfIdle(socket);
    });
  });
  // A WebSocket's connection carries it until it closes: the shutdown closes it as its protocol says (websocket.ts).
  server.on('upgrade', (request: IncomingMessage) => {
    const socket = request.socket;
    if (closing) return socket.destroy();
    requests.set(socket, (requests.get(socket) ?? 0) + 1);
  });
  return {
    closeIdle() {
      closing = true;
      for (const socket of requests.keys()) closeIfIdle(socket);
    },
  };
}

export async function startGatehouse(config: Config, options: DatabaseOptions & { logger?: LogDestination; clock?: Clock } = {}): Promise<Gatehouse> {
  shareArgon2Among(config.workers);
  const database = await openDatabase(config, options);
  const em = database.orm.em.fork();
  const signingKeys = new SigningKeyStore(database.orm.em, config.publicUrl);
  await signingKeys.ensureActiveKey();
  const cursors = new CursorCodec(await serviceSecret(em, 'cursor'));
  const clientSecrets = new SecretBox(await serviceSecret(em, 'client-secrets'), 'client secrets');
  const storedSecrets = new SecretBox(await serviceSecret(em, 'stored-secrets'), 'stored secrets');
  const cookieSecret = await serviceSecret(em, 'oidc-cookies');
  // Commands fail at once while Redis is unreachable (no offline queue) and after 500 ms on a Redis that stops answering,
  // so rate limits fall back to per instance (src/http/rate-limit-store.ts) instead of every request waiting. A connection
  // attempt gives up after 2 s (ioredis: 10), so a partition is retried soon after it heals. The clients connect only
  // once the server is built (connectRedis): building keeps the event loop busy past the attempt's timer.
  const redis =
    config.redisUrl === undefined
      ? undefined
      : new (await import('ioredis')).Redis(config.redisUrl, {
          maxRetriesPerRequest: 1,
          enableAutoPipelining: true,
          enableOfflineQueue: false,
          commandTimeout: 500,
          connectTimeout: 2_000,
          lazyConnect: true,
        });
  const invalidations = createInvalidationBus(redis);
  const apiKeys = new ApiKeyCache(invalidations, config.apiKeyCacheMs);
  const clients = createClientCache(invalidations, config.oauthClientCacheMs);
  const surfaces = new SurfaceRouter(database.orm, config.publicUrl);
  // The M2M token lifetime and the sign-in targets are the tenancy engine's answers, through the surface settings' cache
  // (read once `services` exists: only requests ask them).
  const m2mTokenSeconds = async (credential: { clientId: string; applicationId: string; tenantId: string | null }) =>
    (await settingsOfSurface(services, 'client-credentials', credential.applicationId, credential.tenantId))?.m2mTokenSeconds ?? null;
  const clock = options.clock ?? systemClock;
  const tokenEvents = new TokenEventWriter(database.orm, clock);
  const signIn: SignInRules = {
    target: (requestId, client, tenantParam) => resolveTarget(services, requestId, client, tenantParam),
    admit: (requestId, surface, client, named) => admitSignIn(services, requestId, surface, client, named),
    look: (requestId, applicationId, tenantRef) => surfaceLook(services, requestId, applicationId, tenantRef),
    sessionPolicy: (requestId, applicationId, poolId) => poolSessionPolicy(services, requestId, applicationId, poolId),
    mfaPolicy: (requestId, applicationId, poolId) => poolMfaPolicy(services, requestId, applicationId, poolId),
  };
  const oidc = new OidcProvider({
    config,
    orm: database.orm,
    signingKeys,
    clientSecrets,
    clients,
    organizations: apiKeys.organizations,
    cookieSecret,
    surfaces,
    invalidations,
    liveSubjects: apiKeys.bearerSubjects,
    m2mTokenSeconds,
    signIn,
    samlSignOut: samlSignOut({ orm: database.orm, storedSecrets, publicUrl: config.publicUrl }),
    tokenEvents,
  });
  const surfaceSettings = createSurfaceSettingsCache(invalidations, config.surfaceSettingsCacheMs);
  const readCache = new ReadCache(invalidations, config.readCacheMs);
  const outbox = new OutboxWorker(database.orm, config, storedSecrets);
  const services: Services = {
    config,
    orm: database.orm,
    signingKeys,
    cursors,
    clientSecrets,
    storedSecrets,
    invalidations,
    apiKeys,
    sessionValidations: new SessionValidationCache(invalidations, config.apiKeyCacheMs),
    oidc,
    surfaces,
    surfaceSettings,
    readCache,
    refusalTiming: new RefusalTiming(),
    outbox,
    clock,
    tokenEvents,
    auditWaker: new AuditWaker(database.orm, config.databaseUrl),
  };
  const server = await createServer(services, { ...(redis === undefined ? {} : { redis }), ...(options.logger === undefined ? {} : { logger: options.logger }) });
  if (redis !== undefined) await connectRedis(redis, invalidations);
  const connections = trackConnections(server.app.server);
  const unwatch = watchResources(await database.orm.em.getConnection().getNativeClient(), redis, invalidations);
  outbox.start(server.app.log.child({ component: 'email-outbox' }));
  tokenEvents.start(server.app.log.child({ component: 'token-events' }));
  services.auditWaker.log = server.app.log.child({ component: 'audit-stream' });
  const retention = new AuditRetentionJob(database.orm, clock, config.auditRetentionEveryMs);
  retention.start(server.app.log.child({ component: 'audit-retention' }));
  const sweep = new StorageSweepJob(services);
  sweep.start(server.app.log.child({ component: 'storage-sweep' }));
  const recheck = new DomainRecheckJob(services, config.domainRecheckEveryMs);
  recheck.start(server.app.log.child({ component: 'domain-recheck' }));
  const deferredMail = new DeferredMailJob(services, config.email.pollMs);
  deferredMail.start(server.app.log.child({ component: 'deferred-mail' }));
  let closing: Promise<void> | undefined;
  return {
    services,
    server,
    database,
    async jobsSettled() {
      await Promise.all([retention.settled(), sweep.settled(), recheck.settled(), deferredMail.settled()]);
    },
    close() {
      // Idempotent: a second signal, or a test's cleanup after a shutdown test, waits for the same shutdown.
      closing ??= (async () => {
        connections.closeIdle();
        await server.app.close();
        unwatch();
        await server.apollo.stop();
        // At once: each stops its timer first, and a run caught on a stalled connection (up to DATABASE_TIMEOUTS) waits
        // beside the others' rather than after them, while a later timer starts another.
        await Promise.all([outbox.stop(), tokenEvents.stop(), retention.stop(), sweep.stop(), recheck.stop(), deferredMail.stop()]);
        await services.auditWaker.close();
        await invalidations.close();
        redis?.disconnect();
        await database.close();
      })();
      return closing;
    },
  };
}
