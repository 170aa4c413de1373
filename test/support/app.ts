import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { startGatehouse, type Gatehouse } from '../../src/app.ts';
import type { Clock } from '../../src/clock.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { bootstrap, type BootstrapResult } from '../../src/domain/bootstrap.ts';
import { currentBackgroundWork } from '../../src/background-work.ts';
import { createTestDatabase } from './database.ts';
import { HttpClient } from './http.ts';
import { liveM2MClaims, liveUserClaims } from './oauth.ts';
import { freePort } from './spawned-service.ts';

export interface TestApp {
  readonly gatehouse: Gatehouse;
  readonly baseUrl: string;
  /** The bootstrapped organization, multi-tenant application and its `app_admin` key. */
  readonly root: BootstrapResult;
  /** A client that sends the root key. */
  readonly http: HttpClient;
  /** Every SQL statement the service sent, for the N+1 tests. */
  readonly queries: string[];
  /** Runs `query` (`?` placeholders) on the service's database, outside any request or transaction, and returns its rows. */
  readonly sql: <T = any>(query: string, params?: unknown[]) => Promise<T[]>;
  /** Another bootstrapped organization + application + key: the foreign side of isolation tests. */
  bootstrapAnother(): Promise<BootstrapResult>;
  /**
   * Creates a tenant through the API and returns its id: in the root application, or in `application` (another
   * bootstrapped one) with that application's key.
   */
  createTenant(name: string, application?: BootstrapResult): Promise<string>;
  /** Creates a user of the root application through the API (a member of `tenantId`, when given) and returns its id. */
  createUser(email: string, tenantId?: string): Promise<string>;
  /** A client with other credentials. */
  as(credentials: { apiKey?: string; bearer?: string }): HttpClient;
  /**
   * An access token signed by the service's own key store, as the OAuth token endpoint issues them: with `sub`, the
   * token of that user (who must exist, be active and belong to `tenant_id`) under a live grant, acting with what the
   * user's roles grant; without, a client-credentials token of a new M2M credential holding these permissions.
   */
  mintAccessToken(claims: { sub: string; app_id: string; tenant_id?: string } | { app_id: string; tenant_id?: string; permissions: string[] }): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** PUBLIC_URL (the OAuth issuer) is the service's real address, so discovery's URLs are reachable. */
  reachablePublicUrl?: boolean;
  /** The host name of that PUBLIC_URL (default 127.0.0.1): `localhost` where a browser needs a domain (WebAuthn's RP ID). */
  publicHost?: string;
  /** Where the service writes its JSON log lines (at `logLevel`, info unless overridden); by default it logs nothing. */
  logStream?: { write(line: string): void };
  /** The service's clock (analytics' days, the audit retention's cutoff): a test sets the time instead of waiting. */
  clock?: Clock;
}

export async function startTestApp(overrides: Partial<Config> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const queries: string[] = [];
  const listenPort = options.reachablePublicUrl === true ? await freePort() : 0;
  if (options.reachablePublicUrl === true) overrides = { publicUrl: `http://${options.publicHost ?? '127.0.0.1'}:${listenPort}`, ...overrides };
  const config = loadConfig(
    { PORT: '0', REDIS_URL: process.env['REDIS_URL'] ?? '', LOG_LEVEL: 'silent' },
    {
      databaseUrl: database.databaseUrl,
      dataDir: database.dataDir,
      host: '127.0.0.1',
      publicUrl: 'http://gatehouse.test',
      // Each test app counts in its own Redis keys: parallel files share 127.0.0.1 but not their limits.
      rateLimit: { max: 100_000, windowMs: 60_000, redisPrefix: `gatehouse-test-${randomUUID()}-` },
      // The hosted-page tests post many forms from 127.0.0.1; throttle.test.ts sets a low limit of its own.
      signInRateLimit: { max: 100_000, windowMs: 60_000 },
      // Some suites queue dozens of test mails, or links to one address; email-deliveries.test.ts and
      // hosted-magic-link.test.ts set low limits of their own.
      testEmailsPerHour: 100_000,
      // Race suites send dozens of concurrent requests with one key; concurrency-cap.test.ts sets a low cap of its own.
      concurrentRequestsPerCredential: 100_000,
      mailsPerAddressPerHour: 100_000,
      // A request's statements must not depend on how long a loaded machine took over the setup before it (a
      // credential read again once its 5 s entry lapsed); the suites of the cache's expiry set their own.
      apiKeyCacheMs: 10 * 60_000,
      // A test's domains are in no DNS: the re-check would find their records missing. domain-recheck.test.ts runs it.
      domainRecheckEveryMs: 0,
      ...(options.logStream === undefined ? {} : { logLevel: 'info' }),
      ...overrides,
    },
  );
  // The service's own jobs (the outbox's polls, the token events' flushes…) run at any moment and belong to no request:
  // a request's statements are counted alone.
  const onQuery = (sql: string) => void (currentBackgroundWork() === undefined && queries.push(sql));
  const gatehouse = await startGatehouse(config, { logger: options.logStream ?? false, onQuery, ...(options.clock === undefined ? {} : { clock: options.clock }) });
  await gatehouse.server.app.listen({ port: listenPort, host: '127.0.0.1' });
  const { port } = gatehouse.server.app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const another = () => bootstrap(gatehouse.services.orm, { requestId: randomUUID(), apiKeySecret: undefined });
  const root = await another();
  // The jobs' start-up runs (the storage sweep's, the audit retention's) delete rows: a test's rows never meet them.
  await gatehouse.jobsSettled();
  const testApp: TestApp = {
    gatehouse,
    baseUrl,
    root,
    queries,
    sql: (query, params = []) => gatehouse.services.orm.em.getConnection().execute(query, params),
    http: new HttpClient(baseUrl, { apiKey: root.apiKey }),
    bootstrapAnother: another,
    async createTenant(name, application = root) {
      const client = new HttpClient(baseUrl, { apiKey: application.apiKey });
      const created = await client.post(`/applications/${application.applicationId}/tenants`, { name });
      if (created.status !== 201) throw new Error(`creating tenant ${name}: ${created.status} ${JSON.stringify(created.body)}`);
      return created.body.id as string;
    },
    async createUser(email, tenantId) {
      const created = await testApp.http.post('/users', { email, ...(tenantId === undefined ? {} : { tenantId }) });
      if (created.status !== 201) throw new Error(`creating user ${email}: ${created.status} ${JSON.stringify(created.body)}`);
      return created.body.id as string;
    },
    as: (credentials) => new HttpClient(baseUrl, credentials),
    async mintAccessToken(claims) {
      const { signingKeys } = gatehouse.services;
      if ('sub' in claims) {
        const { sub, ...user } = claims;
        return signingKeys.signAccessToken(sub, await liveUserClaims(testApp, sub, user));
      }
      const live = await liveM2MClaims(testApp, claims);
      return signingKeys.signAccessToken(live.subject, live.claims);
    },
    async close() {
      await gatehouse.close();
      await database.drop();
    },
  };
  return testApp;
}

/** A test app with a tenant of its root application for each of `names` (their ids, in order) and that application's API path. */
export async function startTestAppWithTenants<const Names extends readonly string[]>(
  names: Names,
  overrides: Partial<Config> = {},
  options: TestAppOptions = {},
): Promise<{ app: TestApp; appPath: string; tenants: { -readonly [K in keyof Names]: string } }> {
  const app = await startTestApp(overrides, options);
  const tenants: string[] = [];
  for (const name of names) tenants.push(await app.createTenant(name));
  return { app, appPath: `/applications/${app.root.applicationId}`, tenants: tenants as { -readonly [K in keyof Names]: string } };
}
