import { isIP } from 'node:net';
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
  /** `DATABASE_POOL_MAX`: connections to DATABASE_URL per process (each worker has its own pool). */
  readonly databasePoolMax: number;
  readonly redisUrl: string | undefined;
  readonly bootstrapApiKey: string | undefined;
  /** GATEHOUSE_BOOTSTRAP_ADMIN_EMAIL and _PASSWORD: the first operator, made while the console has none (API.md). */
  readonly bootstrapAdmin: { readonly email: string; readonly password: string } | undefined;
  /** Requests per window per credential (per IP without one); `redisPrefix` separates deployments sharing a Redis. */
  readonly rateLimit: { readonly max: number; readonly windowMs: number; readonly redisPrefix: string };
  /** How long an authenticated API key is remembered by an instance (0: never); changes evict it at once. */
  readonly apiKeyCacheMs: number;
  /** How long an instance remembers the OAuth client metadata it read (0: never); changes evict it at once. */
  readonly oauthClientCacheMs: number;
  /** How long an instance remembers a sign-in surface's look and rules (branding, providers, lockout); changes evict it at once. */
  readonly surfaceSettingsCacheMs: number;
  /** How long an instance keeps a cached read's answer (src/rest/read-cache.ts; 0: never); changes evict it at once. */
  readonly readCacheMs: number;
  /** How often an open audit stream (GET …/audit-logs/stream) sends a heartbeat comment, so proxies keep it open. */
  readonly auditStreamHeartbeatMs: number;
  /**
   * The most streams one credential holds open on an instance at once: audit streams, GraphQL subscriptions over
   * Server-Sent Events, and GraphQL WebSocket connections (each counts as many as it runs subscriptions, at least one).
   */
  readonly streamsPerCredential: number;
  /** Management requests one credential (or address, without credentials) has in flight per instance; past it, 429. */
  readonly concurrentRequestsPerCredential: number;
  /** Test mails (POST /email/test) an application may queue in an hour, all its tenants together. */
  readonly testEmailsPerHour: number;
  /** Mails a page may have sent to one address in an hour (sign-in links and codes, resets, verification). */
  readonly mailsPerAddressPerHour: number;
  /** How often the audit retention job runs (src/domain/audit-retention.ts); 0: never on this instance. */
  readonly auditRetentionEveryMs: number;
  /**
   * The tighter limit on the hosted pages' credential-guessing POSTs (sign-in, sign-up, device user code), per client
   * address, shared by the three forms and counted where `rateLimit` counts (Redis when configured).
   */
  readonly signInRateLimit: { readonly max: number; readonly windowMs: number };
  /**
   * The proxies in front whose `X-Forwarded-For` names the client (`TRUST_PROXY`): none by default, so that a client
   * cannot pick the address its rate limits and sign-in throttle count under; else how many there are, or their
   * addresses and CIDR ranges. The Host header still decides the sign-in surface: a proxy must pass it through.
   */
  readonly trustProxy: false | number | readonly string[];
  readonly bodyLimitBytes: number;
  /** `REQUEST_TIMEOUT_MS`: how long a request may take to arrive whole; past it, 408 and the connection closes. */
  readonly requestTimeoutMs: number;
  /** How long a signalled process waits for its in-flight requests before it exits anyway (1). */
  readonly shutdownTimeoutMs: number;
  readonly logLevel: string;
  /** `LOG_FORMAT=pretty`: coloured lines for a terminal (pino-pretty) instead of JSON lines. */
  readonly logPretty: boolean;
  /** The Bearer token GET /metrics asks for (`METRICS_TOKEN`); unset: the metrics are open to whoever reaches the port. */
  readonly metricsToken: string | undefined;
  /**
   * Processes serving on this machine's cores (`WORKERS`: a positive integer, or `auto`, one per core). Above 1, a
   * cluster primary prepares the database and forks that many workers sharing the port; it needs DATABASE_URL and
   * REDIS_URL (docs/decisions.md, "Workers").
   */
  readonly workers: number;
  /** E-mail delivery (src/domain/email/deliver.ts): where the built-in sender and the HTTP providers are reached, and the outbox's pace. */
  readonly email: EmailConfig;
  /** The upstream identity providers of social and OIDC sign-in (src/domain/sign-in/upstream/). */
  readonly upstreams: UpstreamConfig;
}

/** Where the upstream sign-in reaches its identity providers. */
export interface UpstreamConfig {
  /**
   * `GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS=true` (development and tests only): an auth provider's upstream URLs (an OAuth
   * provider's, a SAML IdP's `ssoUrl`) may also be http on a loopback address (an IdP on the developer's machine); otherwise they are https.
   */
  readonly allowLoopback: boolean;
  /**
   * Whether an auth provider's upstream URLs may be at a private, link-local or other internal address
   * (`UPSTREAM_ALLOW_PRIVATE_HOSTS`): off, so that an administrator cannot reach the operator's network through them.
   */
  readonly allowPrivateHosts: boolean;
  /** GitHub's web origin (`/login/oauth/…`) and API base (`/user`, `/user/emails`): GitHub Enterprise Server's, or a test's. */
  readonly githubUrl: string;
  readonly githubApiUrl: string;
}

/** Where mail leaves the service, and how the outbox retries (docs/decisions.md, "E-mail delivery"). */
export interface EmailConfig {
  /** The SMTP server of the built-in sender (`gatehouse`); unset: its mail is kept in the outbox only. */
  readonly smtpUrl: string | undefined;
  /** PEM certificates trusted besides the system's for SMTP servers (a private relay's CA); unset: the system's only. */
  readonly smtpCaFile: string | undefined;
  /** The HTTP providers' API origins; SES's holds `{region}`. */
  readonly apiUrls: { readonly sendgrid: string; readonly postmark: string; readonly resend: string; readonly ses: string };
  /** How long one attempt may take (connecting, sending, an HTTP answer) before it counts as a transient failure. */
  readonly sendTimeoutMs: number;
  /** Attempts before a mail is `failed`. */
  readonly maxAttempts: number;
  /** The first retry's delay; each next one doubles, with jitter, up to an hour. */
  readonly retryBaseMs: number;
  /** How often an instance looks for mail that another instance queued, or that is due for a retry. */
  readonly pollMs: number;
  /**
   * Whether an SMTP server configured through the API may be at a loopback, private, link-local or other internal
   * address (`EMAIL_ALLOW_PRIVATE_HOSTS`): off, so that an administrator cannot reach the operator's network through it.
   */
  readonly allowPrivateHosts: boolean;
  /** The DNS servers the custom-domain and sender-domain checks ask (`DNS_SERVERS`, `host` or `host:port`, comma-separated); empty: the system's. */
  readonly dnsServers: readonly string[];
}

/** What an integer setting may be: its bounds, and how a refusal says so. */
interface IntegerRange {
  readonly min: number;
  readonly max: number;
  readonly words: string;
}

const NON_NEGATIVE: IntegerRange = { min: 0, max: Number.MAX_SAFE_INTEGER, words: 'a non-negative integer' };
const POSITIVE: IntegerRange = { min: 1, max: Number.MAX_SAFE_INTEGER, words: 'a positive integer' };
const PORT: IntegerRange = { min: 0, max: 65_535, words: 'a port number from 0 to 65535' };

/** Decimal digits only: Number() would also read "0x10", "1e3", "0b1" or " " (as 0), which no operator means. */
function decimal(raw: string): number | undefined {
  return /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, range: IntegerRange = NON_NEGATIVE): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  const value = decimal(raw);
  if (value === undefined || value < range.min || value > range.max) throw new ConfigError(`${name} must be ${range.words}, got "${raw}"`);
  return value;
}

function workers(env: NodeJS.ProcessEnv): number {
  const raw = optional(env, 'WORKERS');
  if (raw === undefined) return 1;
  if (raw === 'auto') return availableParallelism();
  const value = decimal(raw);
  if (value === undefined || value < 1) throw new ConfigError(`WORKERS must be a positive integer or auto, got "${raw}"`);
  return value;
}

/**
 * A URL setting, checked at start so that a typo is refused here rather than failing later (or never: a PUBLIC_URL of
 * another scheme would become the issuer). The refusal names the variable and the shape it needs, never the value,
 * which may hold a password.
 */
function checkedUrl(name: string, raw: string | undefined, shape: string, accepts: (url: URL) => boolean): string | undefined {
  if (raw === undefined) return undefined;
  if (!URL.canParse(raw) || !accepts(new URL(raw))) throw new ConfigError(`${name} must be ${shape}`);
  return raw;
}

/**
 * The issuer and the origin of every absolute link: an origin only, since every route is served at the root (a path
 * would be advertised by discovery and not served), without credentials, query or fragment. Trailing slashes are
 * dropped; the origin is written as URL writes it (lower-case host, no default port), as the OP writes its URLs.
 */
function publicUrl(env: NodeJS.ProcessEnv, port: number): string {
  const raw = optional(env, 'PUBLIC_URL')?.replace(/\/+$/, '');
  const shape = 'an http(s) origin, such as https://auth.example.com (no path, query or credentials)';
  const isOrigin = ({ protocol, href, origin }: URL) => (protocol === 'http:' || protocol === 'https:') && href === `${origin}/`;
  const checked = checkedUrl('PUBLIC_URL', raw, shape, isOrigin);
  return checked === undefined ? `http://localhost:${port}` : new URL(checked).origin;
}

function databaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const shape = 'a postgres:// URL naming a database, such as postgres://user@host:5432/gatehouse';
  const namesDatabase = ({ protocol, pathname }: URL) => (protocol === 'postgres:' || protocol === 'postgresql:') && pathname.length > 1;
  return checkedUrl('DATABASE_URL', optional(env, 'DATABASE_URL'), shape, namesDatabase);
}

function smtpUrl(env: NodeJS.ProcessEnv): string | undefined {
  const shape = 'an smtp:// or smtps:// URL, such as smtps://user:password@smtp.example.com:465';
  return checkedUrl('SMTP_URL', optional(env, 'SMTP_URL'), shape, ({ protocol, hostname }) => (protocol === 'smtp:' || protocol === 'smtps:') && hostname !== '');
}

/**
 * An HTTP provider's API base (tests point it at a local receiver), trailing slashes dropped. `{region}` (SES) is
 * replaced when a mail is sent, so it is checked with a region in its place.
 */
function apiUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = optional(env, name)?.replace(/\/+$/, '');
  if (raw === undefined) return fallback;
  const shape = 'an http(s) URL, such as https://api.example.com';
  checkedUrl(name, raw.replaceAll('{region}', 'eu-west-1'), shape, ({ protocol }) => protocol === 'http:' || protocol === 'https:');
  return raw;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = optional(env, name);
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** `host` or `host:port` entries, IPv6 in brackets when a port follows ([::1]:53), as node:dns's setServers takes them. */
function dnsServers(env: NodeJS.ProcessEnv): readonly string[] {
  const raw = optional(env, 'DNS_SERVERS');
  if (raw === undefined) return Object.freeze([]);
  const entries = raw.split(',').map((entry) => entry.trim());
  const valid = (entry: string) => {
    const match = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d{1,5}))?$/.exec(entry) ?? /^()([0-9a-fA-F:]+)()$/.exec(entry);
    const address = match?.[1] || match?.[2] || '';
    const port = match?.[3];
    return isIP(address) !== 0 && (port === undefined || port === '' || (Number(port) >= 1 && Number(port) <= 65_535));
  };
  if (!entries.every(valid)) throw new ConfigError(`DNS_SERVERS must be IP addresses, each with an optional port (127.0.0.1:5353, [::1]:53), separated by commas, got "${raw}"`);
  return Object.freeze(entries);
}

function emailConfig(env: NodeJS.ProcessEnv): EmailConfig {
  return Object.freeze({
    smtpUrl: smtpUrl(env),
    smtpCaFile: optional(env, 'SMTP_CA_FILE'),
    apiUrls: Object.freeze({
      sendgrid: apiUrl(env, 'SENDGRID_API_URL', 'https://api.sendgrid.com'),
      postmark: apiUrl(env, 'POSTMARK_API_URL', 'https://api.postmarkapp.com'),
      resend: apiUrl(env, 'RESEND_API_URL', 'https://api.resend.com'),
      ses: apiUrl(env, 'SES_API_URL', 'https://email.{region}.amazonaws.com'),
    }),
    sendTimeoutMs: integer(env, 'EMAIL_SEND_TIMEOUT_MS', 15_000, POSITIVE),
    maxAttempts: integer(env, 'EMAIL_MAX_ATTEMPTS', 8, POSITIVE),
    retryBaseMs: integer(env, 'EMAIL_RETRY_BASE_MS', 5_000, POSITIVE),
    pollMs: integer(env, 'EMAIL_POLL_MS', 2_000, POSITIVE),
    allowPrivateHosts: flag(env, 'EMAIL_ALLOW_PRIVATE_HOSTS'),
    dnsServers: dnsServers(env),
  });
}

function upstreamConfig(env: NodeJS.ProcessEnv): UpstreamConfig {
  return Object.freeze({
    allowLoopback: flag(env, 'GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS'),
    allowPrivateHosts: flag(env, 'UPSTREAM_ALLOW_PRIVATE_HOSTS'),
    githubUrl: apiUrl(env, 'GITHUB_URL', 'https://github.com'),
    githubApiUrl: apiUrl(env, 'GITHUB_API_URL', 'https://api.github.com'),
  });
}

function redisUrl(env: NodeJS.ProcessEnv): string | undefined {
  const shape = 'a redis:// or rediss:// URL, such as redis://127.0.0.1:6379';
  return checkedUrl('REDIS_URL', optional(env, 'REDIS_URL'), shape, ({ protocol }) => protocol === 'redis:' || protocol === 'rediss:');
}

/** proxy-addr's names for address ranges, which Fastify's `trustProxy` accepts beside addresses and CIDR ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** An IPv4 or IPv6 address, with a prefix length its family allows, or a named range. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = decimal(prefix);
  return bits !== undefined && bits <= (family === 4 ? 32 : 128);
}

function trustProxy(env: NodeJS.ProcessEnv): Config['trustProxy'] {
  const raw = optional(env, 'TRUST_PROXY');
  if (raw === undefined) return false;
  const hops = decimal(raw);
  if (hops !== undefined) return hops === 0 ? false : hops;
  const entries = raw.split(',').map((entry) => entry.trim());
  if (!entries.every(isProxyAddress)) {
    throw new ConfigError(
      `TRUST_PROXY must be the number of proxies in front, or their addresses and CIDR ranges separated by commas (or loopback, linklocal, uniquelocal), got "${raw}"`,
    );
  }
  return Object.freeze(entries);
}

/** pino's levels: another name makes pino throw when the logger is made, after the database has been opened. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function logLevel(env: NodeJS.ProcessEnv): string {
  const raw = optional(env, 'LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return raw;
}

function logFormat(env: NodeJS.ProcessEnv): 'json' | 'pretty' {
  const raw = optional(env, 'LOG_FORMAT') ?? 'json';
  if (raw !== 'json' && raw !== 'pretty') throw new ConfigError(`LOG_FORMAT must be json or pretty, got "${raw}"`);
  return raw;
}

function optional(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

/** Both or neither; checked against the console's rules where they are used (first-start.ts). */
function firstOperator(env: NodeJS.ProcessEnv): Config['bootstrapAdmin'] {
  const email = optional(env, 'GATEHOUSE_BOOTSTRAP_ADMIN_EMAIL');
  const password = optional(env, 'GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD');
  if (email === undefined && password === undefined) return undefined;
  if (email === undefined || password === undefined) {
    throw new ConfigError('GATEHOUSE_BOOTSTRAP_ADMIN_EMAIL and GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD are set together');
  }
  return Object.freeze({ email, password });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = integer(env, 'PORT', 3000, PORT);
  const bootstrapApiKey = optional(env, 'GATEHOUSE_BOOTSTRAP_API_KEY');
  if (bootstrapApiKey !== undefined && bootstrapApiKey.length < 32) {
    throw new ConfigError('GATEHOUSE_BOOTSTRAP_API_KEY must be at least 32 characters');
  }
  const bootstrapAdmin = firstOperator(env);
  // /metrics answers outside the rate limit (a scraper must never be refused), so its token must not be guessable.
  const metricsToken = optional(env, 'METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 32) throw new ConfigError('METRICS_TOKEN must be at least 32 characters');
  const config: Config = Object.freeze({
    port,
    host: optional(env, 'HOST') ?? '0.0.0.0',
    publicUrl: publicUrl(env, port),
    databaseUrl: databaseUrl(env),
    dataDir: resolve(optional(env, 'GATEHOUSE_DATA_DIR') ?? './data'),
    databasePoolMax: integer(env, 'DATABASE_POOL_MAX', 10, POSITIVE),
    redisUrl: redisUrl(env),
    bootstrapApiKey,
    bootstrapAdmin,
    rateLimit: Object.freeze({
      max: integer(env, 'RATE_LIMIT_MAX', 600, POSITIVE),
      windowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 60_000, POSITIVE),
      redisPrefix: optional(env, 'RATE_LIMIT_REDIS_PREFIX') ?? 'gatehouse-rl-',
    }),
    apiKeyCacheMs: integer(env, 'API_KEY_CACHE_MS', 5_000),
    oauthClientCacheMs: integer(env, 'OAUTH_CLIENT_CACHE_MS', 5_000),
    surfaceSettingsCacheMs: integer(env, 'SURFACE_SETTINGS_CACHE_MS', 5_000),
    readCacheMs: integer(env, 'READ_CACHE_MS', 5_000),
    auditStreamHeartbeatMs: integer(env, 'AUDIT_STREAM_HEARTBEAT_MS', 15_000, POSITIVE),
    streamsPerCredential: integer(env, 'STREAMS_PER_CREDENTIAL', 20, POSITIVE),
    concurrentRequestsPerCredential: integer(env, 'CONCURRENT_REQUESTS_PER_CREDENTIAL', 16, POSITIVE),
    testEmailsPerHour: integer(env, 'TEST_EMAILS_PER_HOUR', 20, POSITIVE),
    mailsPerAddressPerHour: integer(env, 'MAILS_PER_ADDRESS_PER_HOUR', 10, POSITIVE),
    auditRetentionEveryMs: integer(env, 'AUDIT_RETENTION_EVERY_MS', 3_600_000),
    signInRateLimit: Object.freeze({
      max: integer(env, 'SIGN_IN_RATE_LIMIT_MAX', 20, POSITIVE),
      windowMs: integer(env, 'SIGN_IN_RATE_LIMIT_WINDOW_MS', 60_000, POSITIVE),
    }),
    trustProxy: trustProxy(env),
    bodyLimitBytes: 1024 * 1024,
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 60_000, POSITIVE),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 30_000, POSITIVE),
    logLevel: logLevel(env),
    logPretty: logFormat(env) === 'pretty',
    metricsToken,
    workers: workers(env),
    email: emailConfig(env),
    upstreams: upstreamConfig(env),
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

/** The entries' configuration: a refused setting is printed as one line on stderr and the process exits 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`gatehouse: ${error.message}\n`);
    process.exit(1);
  }
}
