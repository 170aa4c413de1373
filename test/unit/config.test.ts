import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { makeCertificate } from '../support/mail-receivers.ts';

/** The refusal of `env`, as the entry prints it (one line, exit 1); a setting accepted by mistake fails the test. */
function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('configuration refused at start, with the reason', () => {
  it.each(['abc', '-1', '1.5', '0x10', '1e3', ' ', '65536', '70000'])('PORT=%j', (value) => {
    expect(refusal({ PORT: value })).toBe(`PORT must be a port number from 0 to 65535, got "${value}"`);
  });

  it('reads integers as decimal digits only, for every integer setting', () => {
    expect(refusal({ API_KEY_CACHE_MS: '0x10' })).toBe('API_KEY_CACHE_MS must be a number of milliseconds from 0 to 2147483647 (about 24.8 days), got "0x10"');
    expect(refusal({ OAUTH_CLIENT_CACHE_MS: '5e3' })).toBe('OAUTH_CLIENT_CACHE_MS must be a number of milliseconds from 0 to 2147483647 (about 24.8 days), got "5e3"');
    expect(refusal({ READ_CACHE_MS: '-5' })).toBe('READ_CACHE_MS must be a number of milliseconds from 0 to 2147483647 (about 24.8 days), got "-5"');
    expect(refusal({ WORKERS: '1e1', DATABASE_URL: 'postgres://h/db', REDIS_URL: 'redis://h' })).toBe('WORKERS must be a positive integer or auto, got "1e1"');
  });

  it.each(['RATE_LIMIT_MAX', 'RATE_LIMIT_WINDOW_MS', 'SIGN_IN_RATE_LIMIT_MAX', 'SIGN_IN_RATE_LIMIT_WINDOW_MS', 'CONCURRENT_REQUESTS_PER_CREDENTIAL', 'DATABASE_POOL_MAX'])(
    '%s=0 (a limit that refuses everything, a window of nothing, or a pool of no connection)',
    (name) => {
      expect(refusal({ [name]: '0' })).toBe(`${name} must be ${name.endsWith('_MS') ? 'a number of milliseconds from 1 to 2147483647 (about 24.8 days)' : 'a positive integer'}, got "0"`);
    },
  );

  // Node fires a longer timer after 1 ms: a monthly retention run would run back to back.
  it.each(['AUDIT_RETENTION_EVERY_MS', 'AUDIT_STREAM_HEARTBEAT_MS', 'SHUTDOWN_TIMEOUT_MS', 'EMAIL_POLL_MS', 'EMAIL_SEND_TIMEOUT_MS', 'API_KEY_CACHE_MS'])('%s above a timer’s 2^31-1 ms', (name) => {
    expect(refusal({ [name]: '2592000000' })).toMatch(new RegExp(`^${name} must be a number of milliseconds from [01] to 2147483647 \\(about 24.8 days\\), got "2592000000"$`));
    expect(loadConfig({ [name]: '2147483647' })).toBeDefined();
  });

  it.each(['localhost:3000', 'auth.example.com', 'ftp://auth.example.com', 'https://auth.example.com/auth', 'https://auth.example.com/?a=1', 'https://auth.example.com/#x', 'https://user:pw@auth.example.com'])(
    'PUBLIC_URL=%s',
    (value) => {
      expect(refusal({ PUBLIC_URL: value })).toBe('PUBLIC_URL must be an http(s) origin, such as https://auth.example.com (no path, query or credentials)');
    },
  );

  it.each(['notaurl', 'mysql://root@db/gatehouse', 'postgres://postgres@127.0.0.1:5432', 'postgres://postgres:s3cret@127.0.0.1:5432/'])('DATABASE_URL=%s, never echoed', (value) => {
    const message = refusal({ DATABASE_URL: value });
    expect(message).toBe('DATABASE_URL must be a postgres:// URL naming a database, such as postgres://user@host:5432/gatehouse');
    expect(message).not.toContain('s3cret');
  });

  it.each(['notaurl', 'http://127.0.0.1:6379', '127.0.0.1:6379', 'redis//:s3cret@127.0.0.1'])('REDIS_URL=%s, never echoed', (value) => {
    const message = refusal({ REDIS_URL: value });
    expect(message).toBe('REDIS_URL must be a redis:// or rediss:// URL, such as redis://127.0.0.1:6379');
    expect(message).not.toContain('s3cret');
  });

  // A bare % in the password would pass the start and fail every mail at send time.
  it.each(['notaurl', 'http://mailer:s3cret@smtp.example.com', 'smtp://', 'smtps://mailer:50%s3cret@smtp.example.com:465', 'smtp://ma%ler:s3cret@smtp.example.com'])('SMTP_URL=%s, never echoed', (value) => {
    const message = refusal({ SMTP_URL: value });
    expect(message).toBe('SMTP_URL must be an smtp:// or smtps:// URL, such as smtps://user:password@smtp.example.com:465, its user and password percent-encoded (% as %25)');
    expect(message).not.toContain('s3cret');
  });

  // Else every mail failed at send time: an option misspelt, or none asked of smtps://, silently required TLS or kept it.
  it.each([
    'smtp://relay.internal:25?security=None',
    'smtp://relay.internal:25?securty=none',
    'smtp://relay.internal:25?security=plain',
    'smtps://mailer:s3cret@smtp.example.com:465?security=none',
    'smtp://mailer:s3cret@smtp.example.com:587?security=none&x=1',
    'smtp://mailer:s3cret@smtp.example.com:587/mail',
  ])('SMTP_URL=%s: an option or a path the sender would ignore, never echoed', (value) => {
    const message = refusal({ SMTP_URL: value });
    expect(message).toBe('SMTP_URL takes no path and one option, ?security=none, on an smtp:// URL (plain, a trusted relay only)');
    expect(message).not.toContain('s3cret');
  });

  it('an e-mail provider’s API base must be an http(s) URL', () => {
    expect(refusal({ SES_API_URL: 'ftp://email.{region}.example.com' })).toBe('SES_API_URL must be an http(s) URL, such as https://api.example.com');
    expect(refusal({ EMAIL_MAX_ATTEMPTS: '0' })).toBe('EMAIL_MAX_ATTEMPTS must be a positive integer, got "0"');
  });

  it('EMAIL_ALLOW_PRIVATE_HOSTS must be true or false, DNS_SERVERS addresses', () => {
    expect(refusal({ EMAIL_ALLOW_PRIVATE_HOSTS: 'yes' })).toBe('EMAIL_ALLOW_PRIVATE_HOSTS must be true or false, got "yes"');
    for (const value of ['dns.example.com', '127.0.0.1:99999', '1.1.1.1;8.8.8.8']) {
      expect(refusal({ DNS_SERVERS: value })).toMatch(/^DNS_SERVERS must be IP addresses/);
    }
  });

  it('METRICS_TOKEN, as GATEHOUSE_BOOTSTRAP_API_KEY, is at least 32 characters: /metrics is outside the rate limit', () => {
    expect(refusal({ METRICS_TOKEN: 'short-token' })).toBe('METRICS_TOKEN must be at least 32 characters');
    expect(refusal({ GATEHOUSE_BOOTSTRAP_API_KEY: 'x'.repeat(31) })).toBe('GATEHOUSE_BOOTSTRAP_API_KEY must be at least 32 characters');
    expect(loadConfig({ METRICS_TOKEN: 'm'.repeat(32) }).metricsToken).toBe('m'.repeat(32));
  });

  // Else a missing file stopped the start only after the database was made, and one holding no certificate trusted
  // nothing more: every mail to the relay failed its TLS check.
  it('SMTP_CA_FILE must be a readable file of PEM certificates', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-config-'));
    const certificate = makeCertificate();
    try {
      const missing = join(dir, 'missing.pem');
      expect(refusal({ SMTP_CA_FILE: missing })).toBe(`SMTP_CA_FILE must be a readable file of PEM certificates: cannot read ${missing} (ENOENT)`);
      expect(refusal({ SMTP_CA_FILE: dir })).toBe(`SMTP_CA_FILE must be a readable file of PEM certificates: cannot read ${dir} (EISDIR)`);
      const none = join(dir, 'key.pem');
      writeFileSync(none, certificate.key);
      expect(refusal({ SMTP_CA_FILE: none })).toBe(`SMTP_CA_FILE must be a readable file of PEM certificates: ${none} holds no certificate`);
      const broken = join(dir, 'broken.pem');
      writeFileSync(broken, `${certificate.cert}-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n`);
      expect(refusal({ SMTP_CA_FILE: broken })).toBe(`SMTP_CA_FILE must be a readable file of PEM certificates: certificate 2 of ${broken} does not parse`);
      const two = join(dir, 'two.pem');
      writeFileSync(two, `${certificate.cert}${certificate.cert}`);
      expect(loadConfig({ SMTP_CA_FILE: two }).email.smtpCaFile).toBe(two);
    } finally {
      certificate.remove();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Stored as given and never printed: one no header can carry as written (a space, a line break, a non-ASCII
  // letter) could never be presented, and the first start's only key would be lost.
  it.each([` ghk_${'k'.repeat(40)}`, `ghk_${'k'.repeat(40)} `, `ghk_${'k'.repeat(20)} ${'k'.repeat(20)}`, `ghk_${'k'.repeat(40)}\n`, `ghk_${'k'.repeat(40)}é`])(
    'GATEHOUSE_BOOTSTRAP_API_KEY=%j, which no header carries as written',
    (value) => {
      expect(refusal({ GATEHOUSE_BOOTSTRAP_API_KEY: value })).toBe('GATEHOUSE_BOOTSTRAP_API_KEY must be visible ASCII characters, no space: a header carries no other as written');
    },
  );

  it('LOG_LEVEL must be a pino level', () => {
    expect(refusal({ LOG_LEVEL: 'verbose' })).toBe('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"');
  });
});

describe('configuration accepted', () => {
  it('takes the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, host: '0.0.0.0', publicUrl: 'http://localhost:3000', databaseUrl: undefined, redisUrl: undefined, logLevel: 'info' });
    expect(config.rateLimit).toMatchObject({ max: 600, windowMs: 60_000 });
    expect(config.signInRateLimit).toEqual({ max: 20, windowMs: 60_000 });
    expect(config.email).toEqual({
      smtpUrl: undefined,
      smtpCaFile: undefined,
      apiUrls: { sendgrid: 'https://api.sendgrid.com', postmark: 'https://api.postmarkapp.com', resend: 'https://api.resend.com', ses: 'https://email.{region}.amazonaws.com' },
      sendTimeoutMs: 15_000,
      maxAttempts: 8,
      retryBaseMs: 5_000,
      pollMs: 2_000,
      allowPrivateHosts: false,
      dnsServers: [],
    });
  });

  it('reads EMAIL_ALLOW_PRIVATE_HOSTS as true or false, and DNS_SERVERS as addresses with optional ports', () => {
    expect(loadConfig({ EMAIL_ALLOW_PRIVATE_HOSTS: 'true' }).email.allowPrivateHosts).toBe(true);
    expect(loadConfig({ EMAIL_ALLOW_PRIVATE_HOSTS: 'false' }).email.allowPrivateHosts).toBe(false);
    expect(loadConfig({ DNS_SERVERS: '127.0.0.1:5353, 1.1.1.1,[::1]:53,::1' }).email.dnsServers).toEqual(['127.0.0.1:5353', '1.1.1.1', '[::1]:53', '::1']);
  });

  it('reads SMTP_URL as written and a provider’s API base without its trailing slash, {region} kept', () => {
    const config = loadConfig({ SMTP_URL: 'smtps://mailer:s3cret@smtp.example.com:465', SES_API_URL: 'http://127.0.0.1:8080/{region}/' });
    expect(config.email.smtpUrl).toBe('smtps://mailer:s3cret@smtp.example.com:465');
    expect(config.email.apiUrls.ses).toBe('http://127.0.0.1:8080/{region}');
    expect(loadConfig({ SMTP_URL: 'smtp://relay.internal:25?security=none' }).email.smtpUrl).toBe('smtp://relay.internal:25?security=none');
    expect(loadConfig({ SMTP_URL: 'smtp://relay.internal:25/' }).email.smtpUrl).toBe('smtp://relay.internal:25/');
  });

  it('writes PUBLIC_URL as its origin: trailing slashes dropped, host lower-cased, default port left out', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://Auth.Example.com:443//' }).publicUrl).toBe('https://auth.example.com');
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080' }).publicUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
  });

  it('keeps DATABASE_URL and REDIS_URL as written (credentials and options included)', () => {
    const config = loadConfig({ DATABASE_URL: 'postgresql://app:s3cret@db:5432/gatehouse?sslmode=require', REDIS_URL: 'rediss://:s3cret@cache:6380/2' });
    expect(config.databaseUrl).toBe('postgresql://app:s3cret@db:5432/gatehouse?sslmode=require');
    expect(config.redisUrl).toBe('rediss://:s3cret@cache:6380/2');
  });

  it('accepts PORT=0 (any free port) with a PUBLIC_URL, and caches of 0 ms (off)', () => {
    const publicUrl = 'http://127.0.0.1:8080';
    expect(loadConfig({ PORT: '0', PUBLIC_URL: publicUrl, API_KEY_CACHE_MS: '0', READ_CACHE_MS: '0' })).toMatchObject({ port: 0, publicUrl, apiKeyCacheMs: 0, readCacheMs: 0 });
    expect(loadConfig({ PORT: '0', PUBLIC_URL: publicUrl })).toMatchObject({ readCacheMs: 5_000 });
  });

  it('refuses PORT=0 without a PUBLIC_URL: the issuer and every link would read localhost:0', () => {
    expect(refusal({ PORT: '0' })).toBe('PORT=0 needs PUBLIC_URL: the issuer and its links would read http://localhost:0 (set PUBLIC_URL, or PORT to a port from 1 to 65535)');
  });
});

describe('TRUST_PROXY', () => {
  it.each(['true', 'yes', '10.0.0.0/33', '::1/129', '10.0.0.1/8/8', 'proxy.example', '10.0.0.1,', '-1'])('refuses %j', (value) => {
    expect(refusal({ TRUST_PROXY: value })).toMatch(/^TRUST_PROXY must be the number of proxies in front, or their addresses and CIDR ranges/);
  });

  it('reads none (unset, empty or 0), a hop count, or addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.1,fd00::/8, loopback' }).trustProxy).toEqual(['10.0.0.0/8', '192.0.2.1', 'fd00::/8', 'loopback']);
  });
});
