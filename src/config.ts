import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

export class ConfigError extends Error {}

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  /** Absent: the embedded database in `dataDir`. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  /** Per process (each worker has its own pool). */
  readonly databasePoolMax: number;
  readonly redisUrl: string | undefined;
  readonly bootstrapApiKey: string | undefined;
  /** The first operator, made while the console has none (API.md). */
  readonly bootstrapAdmin: { readonly email: string; readonly password: string } | undefined;
  /** Per credential (per IP without one); `redisPrefix` separates deployments sharing a Redis. */
  readonly rateLimit: { readonly max: number; readonly windowMs: number; readonly redisPrefix: string };
  /** How long an instance remembers what it read (every *CacheMs; 0: never); changes evict it at once. */
  readonly apiKeyCacheMs: number;
  readonly oauthClientCacheMs: number;
  readonly surfaceSettingsCacheMs: number;
  readonly readCacheMs: number;
  /** So that proxies keep an open audit stream open. */
  readonly auditStreamHeartbeatMs: number;
  /**
   * Per instance: audit streams, GraphQL SSE subscriptions, and WebSocket connections (each counts its subscriptions,
   * at least one).
   */
  readonly streamsPerCredential: number;
  /** In flight per instance (per address without credentials); past it, 429. */
  readonly concurrentRequestsPerCredential: number;
  /** POST /email/test, per application, all its tenants together. */
  readonly testEmailsPerHour: number;
  readonly mailsPerAddressPerHour: number;
  /** src/domain/audit/retention.ts; 0: never on this instance. */
  readonly auditRetentionEveryMs: number;
  /** src/domain/domains/recheck.ts; 0: never on this instance. */
  readonly domainRecheckEveryMs: number;
  /** Hosted credential-guessing POSTs (sign-in, sign-up, device user code) per client address, the three forms together. */
  readonly signInRateLimit: { readonly max: number; readonly windowMs: number };
  /** None by default, so a client cannot pick the address its limits count under; the Host header still picks the surface. */
  readonly trustProxy: false | number | readonly string[];
  readonly bodyLimitBytes: number;
  /** Until the request has arrived whole; past it, 408 and the connection closes. */
  readonly requestTimeoutMs: number;
  readonly shutdownTimeoutMs: number;
  readonly logLevel: string;
  readonly logPretty: boolean;
  /** Unset: the metrics are open to whoever reaches the port. */
  readonly metricsToken: string | undefined;
  /** `auto`: one per core. Above 1, a cluster primary forks workers sharing the port; needs DATABASE_URL and REDIS_URL. */
  readonly workers: number;
  readonly email: EmailConfig;
  readonly upstreams: UpstreamConfig;
}

export interface UpstreamConfig {
  /** Development and tests only: upstream URLs may also be http on a loopback address; otherwise https. */
  readonly allowLoopback: boolean;
  /** Off, so that an administrator cannot reach the operator's network through upstream URLs. */
  readonly allowPrivateHosts: boolean;
  /** GitHub Enterprise Server's, or a test's. */
  readonly githubUrl: string;
  readonly githubApiUrl: string;
}

export interface EmailConfig {
  /** Unset: the built-in sender's mail is kept in the outbox only. */
  readonly smtpUrl: string | undefined;
  /** Trusted besides the system's (a private relay's CA). */
  readonly smtpCaFile: string | undefined;
  /** SES's holds `{region}`. */
  readonly apiUrls: { readonly sendgrid: string; readonly postmark: string; readonly resend: string; readonly ses: string };
  /** Per attempt, all of it (lookup, connection, every answer); past it, a transient failure. */
  readonly sendTimeoutMs: number;
  readonly maxAttempts: number;
  /** Each next one doubles, with jitter, up to an hour. */
  readonly retryBaseMs: number;
  /** For mail another instance queued, or due for a retry. */
  readonly pollMs: number;
  /** Off, so that an administrator cannot reach the operator's network through an API-configured SMTP server. */
  readonly allowPrivateHosts: boolean;
  /** For the domain checks (`host` or `host:port`); empty: the system's. */
  readonly dnsServers: readonly string[];
}

interface IntegerRange {
  readonly min: number;
  readonly max: number;
  readonly words: string;
}

const NON_NEGATIVE: IntegerRange = { min: 0, max: Number.MAX_SAFE_INTEGER, words: 'a non-negative integer' };
const POSITIVE: IntegerRange = { min: 1, max: Number.MAX_SAFE_INTEGER, words: 'a positive integer' };
const PORT: IntegerRange = { min: 0, max: 65_535, words: 'a port number from 0 to 65535' };
// Node's timers hold 2^31-1 ms at most (about 24.8 days): a longer one fires after 1 ms, so a timer would run back to back.
const TIMER_MAX_MS = 2_147_483_647;
const DURATION_MS: IntegerRange = { min: 0, max: TIMER_MAX_MS, words: `a number of milliseconds from 0 to ${TIMER_MAX_MS} (about 24.8 days)` };
const POSITIVE_DURATION_MS: IntegerRange = { min: 1, max: TIMER_MAX_MS, words: `a number of milliseconds from 1 to ${TIMER_MAX_MS} (about 24.8 days)` };

/** Number() would also read "0x10", "1e3", "0b1" or " " (as 0), which no operator means. */
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

/** A typo (WORKERS=100) would fork past the cores and PostgreSQL's connections, every worker failing its start. */
const MAX_WORKERS = 64;

function workers(env: NodeJS.ProcessEnv): number {
  const raw = optional(env, 'WORKERS');
  if (raw === undefined) return 1;
  if (raw === 'auto') return Math.min(availableParallelism(), MAX_WORKERS);
  const value = decimal(raw);
  if (value === undefined || value < 1) throw new ConfigError(`WORKERS must be a positive integer or auto, got "${raw}"`);
  if (value > MAX_WORKERS) throw new ConfigError(`WORKERS must be at most ${MAX_WORKERS}: each worker holds up to DATABASE_POOL_MAX database connections, got "${raw}"`);
  return value;
}

/** Checked at start: a PUBLIC_URL of another scheme would become the issuer. Never names the value (it may hold a password). */
function checkedUrl(name: string, raw: string | undefined, shape: string, accepts: (url: URL) => boolean): string | undefined {
  if (raw === undefined) return undefined;
  if (!URL.canParse(raw) || !accepts(new URL(raw))) throw new ConfigError(`${name} must be ${shape}`);
  return raw;
}

/** An origin only: a path would be advertised by discovery and not served. Written as URL (and the OP) writes it. */
function publicUrl(env: NodeJS.ProcessEnv, port: number): string {
  const raw = optional(env, 'PUBLIC_URL')?.replace(/\/+$/, '');
  const shape = 'an http(s) origin, such as https://auth.example.com (no path, query or credentials)';
  const isOrigin = ({ protocol, href, origin }: URL) => (protocol === 'http:' || protocol === 'https:') && href === `${origin}/`;
  const checked = checkedUrl('PUBLIC_URL', raw, shape, isOrigin);
  if (checked !== undefined) return new URL(checked).origin;
  // The port the system picks is known only once listening, after the issuer is fixed.
  if (port === 0) throw new ConfigError('PORT=0 needs PUBLIC_URL: the issuer and its links would read http://localhost:0 (set PUBLIC_URL, or PORT to a port from 1 to 65535)');
  return `http://localhost:${port}`;
}

function databaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const shape = 'a postgres:// URL naming a database, such as postgres://user@host:5432/gatehouse';
  const namesDatabase = ({ protocol, pathname }: URL) => (protocol === 'postgres:' || protocol === 'postgresql:') && pathname.length > 1;
  return checkedUrl('DATABASE_URL', optional(env, 'DATABASE_URL'), shape, namesDatabase);
}

/** Whether the sender can decode it (a bare `%` cannot be): else every mail would fail at send time, not the start. */
function percentDecodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

function smtpUrl(env: NodeJS.ProcessEnv): string | undefined {
  const shape = 'an smtp:// or smtps:// URL, such as smtps://user:password@smtp.example.com:465, its user and password percent-encoded (% as %25)';
  const accepts = ({ protocol, hostname, username, password }: URL) =>
    (protocol === 'smtp:' || protocol === 'smtps:') && hostname !== '' && percentDecodes(username) && percentDecodes(password);
  const checked = checkedUrl('SMTP_URL', optional(env, 'SMTP_URL'), shape, accepts);
  if (checked === undefined) return undefined;
  // The sender reads security=none on smtp:// alone: anything else would pass unread, and every mail fail to send.
  const { protocol, pathname, search, hash } = new URL(checked);
  const optionsRead = search === '' || (protocol === 'smtp:' && search === '?security=none');
  if (!optionsRead || (pathname !== '' && pathname !== '/') || hash !== '') {
    throw new ConfigError('SMTP_URL takes no path and one option, ?security=none, on an smtp:// URL (plain, a trusted relay only)');
  }
  return checked;
}

/** `{region}` (SES) is replaced at send time, so it is checked with a region in its place. */
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

/** IPv6 in brackets when a port follows ([::1]:53), as node:dns's setServers takes them. */
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

/** Read at start: TLS ignores text that is not a certificate, so a wrong file would only fail every send later. */
function smtpCaFile(env: NodeJS.ProcessEnv): string | undefined {
  const path = optional(env, 'SMTP_CA_FILE');
  if (path === undefined) return undefined;
  const refuse = (reason: string) => new ConfigError(`SMTP_CA_FILE must be a readable file of PEM certificates: ${reason}`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw refuse(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const certificates = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (certificates.length === 0) throw refuse(`${path} holds no certificate`);
  certificates.forEach((pem, index) => {
    try {
      new X509Certificate(pem);
    } catch {
      throw refuse(`certificate ${index + 1} of ${path} does not parse`);
    }
  });
  return path;
}

function emailConfig(env: NodeJS.ProcessEnv): EmailConfig {
  return Object.freeze({
    smtpUrl: smtpUrl(env),
    smtpCaFile: smtpCaFile(env),
    apiUrls: Object.freeze({
      sendgrid: apiUrl(env, 'SENDGRID_API_URL', 'https://api.sendgrid.com'),
      postmark: apiUrl(env, 'POSTMARK_API_URL', 'https://api.postmarkapp.com'),
      resend: apiUrl(env, 'RESEND_API_URL', 'https://api.resend.com'),
      ses: apiUrl(env, 'SES_API_URL', 'https://email.{region}.amazonaws.com'),
    }),
    sendTimeoutMs: integer(env, 'EMAIL_SEND_TIMEOUT_MS', 15_000, POSITIVE_DURATION_MS),
    maxAttempts: integer(env, 'EMAIL_MAX_ATTEMPTS', 8, POSITIVE),
    retryBaseMs: integer(env, 'EMAIL_RETRY_BASE_MS', 5_000, POSITIVE_DURATION_MS),
    pollMs: integer(env, 'EMAIL_POLL_MS', 2_000, POSITIVE_DURATION_MS),
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

/** proxy-addr's named ranges, which Fastify's `trustProxy` accepts too. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

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

/** Another name makes pino throw when the logger is made, after the database has been opened. */
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

/** Both or neither; checked against the console's rules in first-start.ts. */
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
  // Never printed: one that no X-API-Key header carries as written could never be presented.
  if (bootstrapApiKey !== undefined && !/^[\x21-\x7e]+$/.test(bootstrapApiKey)) {
    throw new ConfigError('GATEHOUSE_BOOTSTRAP_API_KEY must be visible ASCII characters, no space: a header carries no other as written');
  }
  const bootstrapAdmin = firstOperator(env);
  // /metrics answers outside the rate limit (a scraper must never be refused), so its token must not be guessable.
  const metricsToken = optional(env, 'METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 32) throw new ConfigError('METRICS_TOKEN must be at least 32 characters');
  const config: Config = Object.freeze({
    port,
    host: optional(env, 'HOST') ?? '0.0.0.0',
    // An overriding publicUrl stands in for PUBLIC_URL, so PORT=0 is not refused for want of one.
    publicUrl: overrides.publicUrl ?? publicUrl(env, port),
    databaseUrl: databaseUrl(env),
    dataDir: resolve(optional(env, 'GATEHOUSE_DATA_DIR') ?? './data'),
    databasePoolMax: integer(env, 'DATABASE_POOL_MAX', 10, POSITIVE),
    redisUrl: redisUrl(env),
    bootstrapApiKey,
    bootstrapAdmin,
    rateLimit: Object.freeze({
      max: integer(env, 'RATE_LIMIT_MAX', 600, POSITIVE),
      windowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 60_000, POSITIVE_DURATION_MS),
      redisPrefix: optional(env, 'RATE_LIMIT_REDIS_PREFIX') ?? 'gatehouse-rl-',
    }),
    apiKeyCacheMs: integer(env, 'API_KEY_CACHE_MS', 5_000, DURATION_MS),
    oauthClientCacheMs: integer(env, 'OAUTH_CLIENT_CACHE_MS', 5_000, DURATION_MS),
    surfaceSettingsCacheMs: integer(env, 'SURFACE_SETTINGS_CACHE_MS', 5_000, DURATION_MS),
    readCacheMs: integer(env, 'READ_CACHE_MS', 5_000, DURATION_MS),
    auditStreamHeartbeatMs: integer(env, 'AUDIT_STREAM_HEARTBEAT_MS', 15_000, POSITIVE_DURATION_MS),
    streamsPerCredential: integer(env, 'STREAMS_PER_CREDENTIAL', 20, POSITIVE),
    concurrentRequestsPerCredential: integer(env, 'CONCURRENT_REQUESTS_PER_CREDENTIAL', 16, POSITIVE),
    testEmailsPerHour: integer(env, 'TEST_EMAILS_PER_HOUR', 20, POSITIVE),
    mailsPerAddressPerHour: integer(env, 'MAILS_PER_ADDRESS_PER_HOUR', 10, POSITIVE),
    auditRetentionEveryMs: integer(env, 'AUDIT_RETENTION_EVERY_MS', 3_600_000, DURATION_MS),
    domainRecheckEveryMs: integer(env, 'DOMAIN_RECHECK_EVERY_MS', 600_000, DURATION_MS),
    signInRateLimit: Object.freeze({
      max: integer(env, 'SIGN_IN_RATE_LIMIT_MAX', 20, POSITIVE),
      windowMs: integer(env, 'SIGN_IN_RATE_LIMIT_WINDOW_MS', 60_000, POSITIVE_DURATION_MS),
    }),
    trustProxy: trustProxy(env),
    bodyLimitBytes: 1024 * 1024,
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 60_000, POSITIVE_DURATION_MS),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 30_000, POSITIVE_DURATION_MS),
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

export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`gatehouse: ${error.message}\n`);
    process.exit(1);
  }
}
