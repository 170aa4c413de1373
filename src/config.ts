import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

/** A setting the service cannot start with; the entry prints its message and exits non-zero. */
export class ConfigError extends Error {}

/** The service's configuration: the environment, parsed once into a typed, frozen object. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  /** A real PostgreSQL; when absent the embedded database in `dataDir` is used. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly redisUrl: string | undefined;
  readonly bootstrapApiKey: string | undefined;
  /** Requests per window per credential (per IP without one); `redisPrefix` separates deployments sharing a Redis. */
  readonly rateLimit: { readonly max: number; readonly windowMs: number; readonly redisPrefix: string };
  /** How long an authenticated API key is remembered by an instance (0: never); changes evict it at once. */
  readonly apiKeyCacheMs: number;
  /** How long an instance remembers the OAuth client metadata it read (0: never); changes evict it at once. */
  readonly oauthClientCacheMs: number;
  /** How long an instance remembers a sign-in surface's look and rules (branding, providers, lockout); changes evict it at once. */
  readonly surfaceSettingsCacheMs: number;
  /**
   * The tighter limit on the hosted pages' credential-guessing POSTs (sign-in, sign-up, device user code), per client
   * address, shared by the three forms and counted where `rateLimit` counts (Redis when configured).
   */
  readonly signInRateLimit: { readonly max: number; readonly windowMs: number };
  readonly bodyLimitBytes: number;
  readonly logLevel: string;
  /**
   * Processes serving on this machine's cores (`WORKERS`: a positive integer, or `auto`, one per core). Above 1, a
   * cluster primary prepares the database and forks that many workers sharing the port; it needs DATABASE_URL and
   * REDIS_URL (docs/decisions.md, "Workers").
   */
  readonly workers: number;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function workers(env: NodeJS.ProcessEnv): number {
  const raw = optional(env, 'WORKERS');
  if (raw === undefined) return 1;
  if (raw === 'auto') return availableParallelism();
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new ConfigError(`WORKERS must be a positive integer or auto, got "${raw}"`);
  return value;
}

function optional(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = integer(env, 'PORT', 3000);
  const bootstrapApiKey = optional(env, 'GATEHOUSE_BOOTSTRAP_API_KEY');
  if (bootstrapApiKey !== undefined && bootstrapApiKey.length < 32) {
    throw new ConfigError('GATEHOUSE_BOOTSTRAP_API_KEY must be at least 32 characters');
  }
  const config: Config = Object.freeze({
    port,
    host: optional(env, 'HOST') ?? '0.0.0.0',
    publicUrl: (optional(env, 'PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl: optional(env, 'DATABASE_URL'),
    dataDir: resolve(optional(env, 'GATEHOUSE_DATA_DIR') ?? './data'),
    redisUrl: optional(env, 'REDIS_URL'),
    bootstrapApiKey,
    rateLimit: Object.freeze({
      max: integer(env, 'RATE_LIMIT_MAX', 600),
      windowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 60_000),
      redisPrefix: optional(env, 'RATE_LIMIT_REDIS_PREFIX') ?? 'gatehouse-rl-',
    }),
    apiKeyCacheMs: integer(env, 'API_KEY_CACHE_MS', 5_000),
    oauthClientCacheMs: integer(env, 'OAUTH_CLIENT_CACHE_MS', 5_000),
    surfaceSettingsCacheMs: integer(env, 'SURFACE_SETTINGS_CACHE_MS', 5_000),
    signInRateLimit: Object.freeze({
      max: integer(env, 'SIGN_IN_RATE_LIMIT_MAX', 20),
      windowMs: integer(env, 'SIGN_IN_RATE_LIMIT_WINDOW_MS', 60_000),
    }),
    bodyLimitBytes: 1024 * 1024,
    logLevel: optional(env, 'LOG_LEVEL') ?? 'info',
    workers: workers(env),
    ...overrides,
  });
  if (config.workers > 1 && config.databaseUrl === undefined) {
    throw new ConfigError(`WORKERS=${config.workers} needs DATABASE_URL: the embedded database (PGlite) serves one process`);
  }
  if (config.workers > 1 && config.redisUrl === undefined) {
    throw new ConfigError(
      `WORKERS=${config.workers} needs REDIS_URL: the workers must share rate-limit counters, the sign-in throttle and cache invalidations`,
    );
  }
  return config;
}
