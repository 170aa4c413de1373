import { spawnSync } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedDatabaseInUse, openEmbeddedDatabase, readEmbeddedLock, type EmbeddedDatabase } from '../../src/db/embedded.ts';

/**
 * The embedded database's data directory (src/db/embedded.ts): only the service's OS user reaches it, through files or
 * through its socket, and it has one owner at a time, named in `gatehouse.lock` from the moment it is taken.
 */
let parent: string;
beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), 'gatehouse-embedded-'));
  // Others' bits of the parent are not the service's to decide: make it traversable, as ./data's parent usually is.
  await chmod(parent, 0o755);
});
afterAll(async () => rm(parent, { recursive: true, force: true }));

/** Opened as a server opens it: its socket named in the lock file for commands. */
async function published(dataDir: string): Promise<EmbeddedDatabase> {
  const database = await openEmbeddedDatabase(dataDir);
  await database.publish();
  return database;
}

const mode = async (path: string) => (await lstat(path)).mode & 0o777;

/** Every directory and regular file under `dir`, with its permission bits. */
async function modes(dir: string): Promise<{ path: string; kind: 'dir' | 'file'; mode: number }[]> {
  const found: { path: string; kind: 'dir' | 'file'; mode: number }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) found.push({ path, kind: 'dir', mode: await mode(path) });
    else if (entry.isFile()) found.push({ path, kind: 'file', mode: await mode(path) });
  }
  return found;
}

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  return pid;
}

describe('who can reach the embedded database', () => {
  let dataDir: string;
  let database: EmbeddedDatabase | undefined;
  afterAll(async () => database?.stop());

  it('keeps its directories 0700 and its files 0600, the lock file included, under a permissive umask', async () => {
    dataDir = join(parent, 'data');
    process.umask(0o022);
    database = await published(dataDir);
    expect(await mode(dataDir)).toBe(0o700);
    expect(await mode(join(dataDir, 'pg'))).toBe(0o700);
    expect(await mode(join(dataDir, 'gatehouse.lock'))).toBe(0o600);
    const found = await modes(dataDir);
    expect(found.filter((entry) => entry.kind === 'file').length).toBeGreaterThan(100);
    expect(found.filter((entry) => entry.kind === 'dir' && entry.mode !== 0o700)).toEqual([]);
    // While it runs, PGlite keeps a few files it writes through fopen at 0644 (inside the 0700 directory); none is
    // writable by others, and once stopped every file is 0600.
    expect(found.filter((entry) => entry.kind === 'file' && (entry.mode & 0o033) !== 0)).toEqual([]);
  });

  it('serves it on a socket file in that directory, owner-only, named in the lock file: no TCP port', async () => {
    const url = new URL(database?.url ?? '');
    const socketDir = decodeURIComponent(url.hostname);
    expect(socketDir).toBe(dataDir);
    expect((await stat(join(socketDir, `.s.PGSQL.${url.port}`))).isSocket()).toBe(true);
    expect(await mode(join(socketDir, `.s.PGSQL.${url.port}`))).toBe(0o600);
    expect(await readEmbeddedLock(dataDir)).toEqual({ pid: process.pid, started: expect.any(String), url: database?.url });
    expect(await query(database?.url ?? '', 'select 1 as one')).toEqual([{ one: 1 }]);
  });

  it('keeps a small buffer pool in its memory (the files below it are cached by the OS)', async () => {
    expect(await query(database?.url ?? '', 'show shared_buffers')).toEqual([{ shared_buffers: '16MB' }]);
  });

  it('is refused to a second opener while it is open, even in the same process', async () => {
    const refusal = await openEmbeddedDatabase(dataDir).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(EmbeddedDatabaseInUse);
    expect((refusal as Error).message).toBe(`the embedded database in ${dataDir} is in use by process ${process.pid} (${database?.url})`);
    expect(await query(database?.url ?? '', 'select 1 as one')).toEqual([{ one: 1 }]);
  });

  it('leaves every file 0600 when stopped, and makes private again a directory an older version left open', async () => {
    await database?.stop();
    database = undefined;
    expect(await readEmbeddedLock(dataDir)).toBeUndefined();
    const stopped = await modes(dataDir);
    expect(stopped.filter((entry) => entry.mode !== (entry.kind === 'dir' ? 0o700 : 0o600))).toEqual([]);
    for (const entry of stopped) await chmod(entry.path, entry.kind === 'dir' ? 0o755 : 0o666);
    await chmod(dataDir, 0o755);
    database = await published(dataDir);
    expect(await mode(dataDir)).toBe(0o700);
    expect((await modes(dataDir)).filter((entry) => (entry.mode & 0o077) !== 0 && !entry.path.endsWith('pg_internal.init'))).toEqual([]);
  });
});

describe('a data directory whose path is too long for a socket', () => {
  it('serves it on a socket in a private temporary directory, removed on stop', async () => {
    const dataDir = join(parent, 'd'.repeat(120));
    const database = await published(dataDir);
    const socketDir = decodeURIComponent(new URL(database.url).hostname);
    try {
      expect(socketDir.startsWith(join(tmpdir(), 'gatehouse-'))).toBe(true);
      expect(await mode(socketDir)).toBe(0o700);
      expect(await query(database.url, 'select 1 as one')).toEqual([{ one: 1 }]);
    } finally {
      await database.stop();
    }
    await expect(stat(socketDir)).rejects.toThrow();
  });
});

describe('the lock on the data directory', () => {
  it('held by a lock file that names no process (empty, truncated): refused with one line, nothing opened', async () => {
    const dataDir = join(parent, 'empty-lock');
    await mkdir(dataDir);
    await writeFile(join(dataDir, 'gatehouse.lock'), '');
    expect(await readEmbeddedLock(dataDir)).toEqual({ pid: undefined });
    const refusal = await openEmbeddedDatabase(dataDir).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(EmbeddedDatabaseInUse);
    expect((refusal as Error).message).toBe(
      `the embedded database in ${dataDir} is locked by ${join(dataDir, 'gatehouse.lock')}, which names no process: delete it if no gatehouse process uses this directory`,
    );
    expect(await readdir(dataDir)).toEqual(['gatehouse.lock']);
  });

  it('held by a live process that is still starting (no socket yet): refused, naming it', async () => {
    const dataDir = join(parent, 'starting');
    await mkdir(dataDir);
    // This test's parent process: alive, and not this one.
    await writeFile(join(dataDir, 'gatehouse.lock'), JSON.stringify({ pid: process.ppid }));
    expect(await readEmbeddedLock(dataDir)).toEqual({ pid: process.ppid });
    await expect(openEmbeddedDatabase(dataDir)).rejects.toThrow(
      `the embedded database in ${dataDir} is in use by process ${process.ppid} (starting, or running a command)`,
    );
    expect(await readdir(dataDir)).toEqual(['gatehouse.lock']);
  });

  it('left by a process that is gone (a crash), or by a predecessor with this pid, is taken over', async () => {
    for (const pid of [deadPid(), process.pid]) {
      const dataDir = await mkdtemp(join(parent, 'stale-'));
      await writeFile(join(dataDir, 'gatehouse.lock'), JSON.stringify({ pid, url: 'postgresql://postgres@%2Fgone:5432/postgres' }));
      expect(await readEmbeddedLock(dataDir)).toBeUndefined();
      const database = await openEmbeddedDatabase(dataDir);
      try {
        expect(JSON.parse(await readFile(join(dataDir, 'gatehouse.lock'), 'utf8'))).toEqual({ pid: process.pid, started: expect.any(String) });
      } finally {
        await database.stop();
      }
      expect(await readdir(dataDir)).not.toContain('gatehouse.lock');
    }
  });

  it('left by a process whose pid was reused since (another start time) is taken over', async () => {
    const dataDir = join(parent, 'reused');
    await mkdir(dataDir);
    await writeFile(join(dataDir, 'gatehouse.lock'), JSON.stringify({ pid: process.ppid, started: '1' }));
    expect(await readEmbeddedLock(dataDir)).toBeUndefined();
  });
});
