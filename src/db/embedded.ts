import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The embedded PostgreSQL: PGlite on a file data directory, served on 127.0.0.1 by PGLiteSocketServer so
 * that the ordinary PostgreSQL driver talks to it. Loaded lazily: a DATABASE_URL deployment never imports it.
 */
export interface EmbeddedDatabase {
  readonly url: string;
  /** The pool size the server may use on it. */
  readonly poolMax: number;
  stop(): Promise<void>;
}

/** Pools together must not exceed the socket multiplexer (STACK.md, rule 1). */
export const EMBEDDED_MAX_CONNECTIONS = 5;
/** The server keeps one socket connection free for `gatehouse bootstrap` run beside it. */
export const EMBEDDED_SERVER_POOL = EMBEDDED_MAX_CONNECTIONS - 1;

/** The lock file names the process that owns the data directory and the socket it serves it on. */
export interface EmbeddedLock {
  pid: number;
  url: string;
}

const LOCK_FILE = 'gatehouse.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running instance that owns `dataDir`, if any (PGlite does not lock its directory: rule 4). */
export async function readEmbeddedLock(dataDir: string): Promise<EmbeddedLock | undefined> {
  try {
    const lock = JSON.parse(await readFile(join(dataDir, LOCK_FILE), 'utf8')) as EmbeddedLock;
    return isAlive(lock.pid) ? lock : undefined;
  } catch {
    return undefined;
  }
}

async function acquireLock(dataDir: string): Promise<string> {
  const path = join(dataDir, LOCK_FILE);
  const owner = await readEmbeddedLock(dataDir);
  if (owner !== undefined && owner.pid !== process.pid) {
    throw new Error(`the embedded database in ${dataDir} is in use by process ${owner.pid} (${owner.url})`);
  }
  await rm(path, { force: true });
  const handle = await open(path, 'wx');
  await handle.close();
  return path;
}

export async function startEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  await mkdir(dataDir, { recursive: true });
  const lockPath = await acquireLock(dataDir);
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create({ dataDir: join(dataDir, 'pg') });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: EMBEDDED_MAX_CONNECTIONS });
  await server.start();
  const address = server.getServerConn();
  const url = `postgresql://postgres@${address}/postgres`;
  await writeFile(lockPath, JSON.stringify({ pid: process.pid, url } satisfies EmbeddedLock));
  return {
    url,
    poolMax: EMBEDDED_SERVER_POOL,
    async stop() {
      await server.stop();
      await db.close();
      await rm(lockPath, { force: true });
    },
  };
}
