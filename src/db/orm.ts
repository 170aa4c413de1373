import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Config } from '../config.ts';
import { ENTITIES } from './entities/index.ts';
import { Migration0001Initial } from './migrations/0001-initial.ts';
import { Migration0002AuthProviderSlot } from './migrations/0002-auth-provider-slot.ts';
import { Migration0003OAuth } from './migrations/0003-oauth.ts';
import { Migration0004SignInLockout } from './migrations/0004-sign-in-lockout.ts';
import { Migration0005SurfaceLookups } from './migrations/0005-surface-lookups.ts';
import { Migration0006AuditApiKey } from './migrations/0006-audit-api-key.ts';
import { Migration0007EmailUnicodeKeys } from './migrations/0007-email-unicode-keys.ts';
import { Migration0008OidcModelApplication } from './migrations/0008-oidc-model-application.ts';
import type { EmbeddedDatabase } from './embedded.ts';

export const MIGRATIONS = [
  { name: '0001-initial', class: Migration0001Initial },
  { name: '0002-auth-provider-slot', class: Migration0002AuthProviderSlot },
  { name: '0003-oauth', class: Migration0003OAuth },
  { name: '0004-sign-in-lockout', class: Migration0004SignInLockout },
  { name: '0005-surface-lookups', class: Migration0005SurfaceLookups },
  { name: '0006-audit-api-key', class: Migration0006AuditApiKey },
  { name: '0007-email-unicode-keys', class: Migration0007EmailUnicodeKeys },
  { name: '0008-oidc-model-application', class: Migration0008OidcModelApplication },
];

export interface Database {
  readonly orm: MikroORM;
  readonly embedded: EmbeddedDatabase | undefined;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** Counts every SQL statement sent (the N+1 tests and the bench read it). */
  onQuery?: (sql: string) => void;
}

export function ormOptions(url: string, poolMax: number, options: DatabaseOptions = {}): Options {
  const onQuery = options.onQuery;
  return {
    clientUrl: url,
    entities: ENTITIES,
    extensions: [Migrator],
    migrations: { migrationsList: MIGRATIONS, transactional: true, allOrNothing: true, snapshot: false, snapshotOnMigrate: false, silent: true },
    pool: { min: 0, max: poolMax },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    ...(onQuery === undefined
      ? {}
      : {
          debug: ['query'],
          loggerFactory: () => ({
            log: (namespace: string, message: string) => {
              if (namespace === 'query') onQuery(message);
            },
            error: () => undefined,
            warn: () => undefined,
            logQuery: (context: { query: string }) => onQuery(context.query),
            setDebugMode: () => undefined,
            isEnabled: (namespace: string) => namespace === 'query',
          }),
        }),
  };
}

/** Opens the database (the embedded one unless DATABASE_URL is set) and brings its schema up to date. */
export async function openDatabase(config: Config, options: DatabaseOptions & { url?: string; poolMax?: number } = {}): Promise<Database> {
  let embedded: EmbeddedDatabase | undefined;
  let url = options.url ?? config.databaseUrl;
  let poolMax = options.poolMax ?? 10;
  if (url === undefined) {
    const { startEmbeddedDatabase } = await import('./embedded.ts');
    embedded = await startEmbeddedDatabase(config.dataDir);
    url = embedded.url;
    poolMax = embedded.poolMax;
  }
  const orm = await MikroORM.init(ormOptions(url, poolMax, options));
  await orm.migrator.up();
  return {
    orm,
    embedded,
    async close() {
      await orm.close(true);
      await embedded?.stop();
    },
  };
}
