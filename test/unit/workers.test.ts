import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { argon2Concurrency } from '../../src/auth/password-hash.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';

const shared = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/gatehouse', REDIS_URL: 'redis://127.0.0.1:6379' };

describe('WORKERS', () => {
  it('is 1 unless set, a positive integer, or one per core with auto', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: '' }).workers).toBe(1);
    expect(loadConfig({ ...shared, WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ ...shared, WORKERS: 'auto' }).workers).toBe(Math.min(availableParallelism(), 64));
  });

  it('refuses 0, a negative, a fraction or a word', () => {
    for (const value of ['0', '-2', '1.5', 'abc', 'AUTO']) {
      expect(() => loadConfig({ ...shared, WORKERS: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ ...shared, WORKERS: value }), value).toThrow(`WORKERS must be a positive integer or auto, got "${value}"`);
    }
  });

  it('refuses more than 64', () => {
    expect(loadConfig({ ...shared, WORKERS: '64' }).workers).toBe(64);
    expect(() => loadConfig({ ...shared, WORKERS: '65' })).toThrow(
      new ConfigError('WORKERS must be at most 64: each worker holds up to DATABASE_POOL_MAX database connections, got "65"'),
    );
  });

  it('above 1, needs DATABASE_URL (the embedded database serves one process) and REDIS_URL (shared limits and invalidations)', () => {
    expect(() => loadConfig({ REDIS_URL: shared.REDIS_URL, WORKERS: '2' })).toThrow(new ConfigError('WORKERS=2 needs DATABASE_URL: the embedded database (PGlite) serves one process'));
    expect(() => loadConfig({ DATABASE_URL: shared.DATABASE_URL, WORKERS: '2' })).toThrow(/^WORKERS=2 needs REDIS_URL: /);
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(ConfigError);
    expect(loadConfig({ WORKERS: '1' }).workers).toBe(1);
  });
});

describe('the Argon2 share of a process', () => {
  it('is one job per core for a single process (at most 4, the thread pool), and the cores divided among workers', () => {
    const cores = availableParallelism();
    expect(argon2Concurrency(1)).toBe(Math.min(cores, 4));
    expect(argon2Concurrency(cores)).toBe(1);
    expect(argon2Concurrency(cores * 3)).toBe(1);
    expect(argon2Concurrency(2)).toBe(Math.min(Math.ceil(cores / 2), 4));
  });
});
