import { randomBytes } from 'node:crypto';
import { chmod, link, lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The embedded PostgreSQL: PGlite on a file data directory, served by PGLiteSocketServer on a Unix socket inside it for
 *  the ordinary driver; loaded only when a directory is opened. The socket server has no authentication, so the socket
 *  lives in the 0700 data directory (not a loopback port any local user could reach) and every file PGlite writes is 0600. */
export interface EmbeddedDatabase {
  readonly url: string;
  readonly poolMax: number;
  /** Names the socket's URL in the lock file once the server has migrated, so no command migrates beside it; a command
   *  that opened the directory itself never does, so others wait for it. */
  publish(): Promise<void>;
  stop(): Promise<void>;
}

/** Pools together must not exceed the socket multiplexer (STACK.md, rule 1). */
export const EMBEDDED_MAX_CONNECTIONS = 5;
/** The server keeps one socket connection free for `gatehouse bootstrap` run beside it. */
export const EMBEDDED_SERVER_POOL = EMBEDDED_MAX_CONNECTIONS - 1;

/** PostgreSQL's default 128MB pool, in PGlite's memory, took half an open's CPU and 100 MiB resident; the OS caches the files. */
const SHARED_BUFFERS = '16MB';

/** Names the process that owns the data directory and, once it serves it, the socket. Created atomically with the pid in
 *  it before PGlite opens anything (PGlite does not lock its directory: STACK.md, rule 4). */
export interface EmbeddedLock {
  /** Undefined for a file that cannot be read as a lock (empty, truncated): held all the same, as nobody can say by whom. */
  pid: number | undefined;
  /** The owner's start time (/proc, clock ticks since boot), so that a pid reused after a crash is not taken for the owner. */
  started?: string;
  /** The socket's URL, once the owner serves the database; absent while it starts, and while a command uses the directory alone. */
  url?: string;
}

export class EmbeddedDatabaseInUse extends Error {
  readonly owner: EmbeddedLock;

  constructor(dataDir: string, owner: EmbeddedLock) {
    super(
      owner.pid === undefined
        ? `the embedded database in ${dataDir} is locked by ${join(dataDir, LOCK_FILE)}, which names no process: delete it if no gatehouse process uses this directory`
        : `the embedded database in ${dataDir} is in use by process ${owner.pid} (${owner.url ?? 'starting, or running a command'})`,
    );
    this.name = 'EmbeddedDatabaseInUse';
    this.owner = owner;
  }
}

const LOCK_FILE = 'gatehouse.lock';
const SOCKET_PORT = 5432;
const SOCKET_FILE = `.s.PGSQL.${SOCKET_PORT}`;
/** sun_path holds 108 bytes on Linux, 104 on the BSDs and macOS. */
const MAX_SOCKET_PATH = 100;

/** Lock files taken by this process, so that a lock naming our own pid is told apart from one left by a predecessor. */
const heldHere = new Set<string>();

async function processStartTime(pid: number): Promise<string | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime); the command name (field 2) may hold spaces and parentheses, so count from its end.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

async function isOwnerAlive(lock: EmbeddedLock & { pid: number }, lockPath: string): Promise<boolean> {
  // Our own pid in a lock this process did not take: a predecessor's (a container restarts its process as pid 1).
  if (lock.pid === process.pid) return heldHere.has(lockPath);
  try {
    process.kill(lock.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (lock.started === undefined) return true;
  const started = await processStartTime(lock.pid);
  return started === undefined || started === lock.started;
}

function parseLock(text: string): EmbeddedLock {
  try {
    const parsed = JSON.parse(text) as Partial<EmbeddedLock>;
    if (typeof parsed.pid === 'number' && Number.isSafeInteger(parsed.pid) && parsed.pid > 0) {
      return {
        pid: parsed.pid,
        ...(typeof parsed.started === 'string' ? { started: parsed.started } : {}),
        ...(typeof parsed.url === 'string' ? { url: parsed.url } : {}),
      };
    }
  } catch {
    // not JSON: an unreadable lock
  }
  return { pid: undefined };
}

type LockState = { state: 'free' } | { state: 'held'; lock: EmbeddedLock } | { state: 'stale'; text: string };

async function inspectLock(lockPath: string): Promise<LockState> {
  let text: string;
  try {
    text = await readFile(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'free' };
    // Unreadable (permissions, I/O): someone's lock all the same.
    return { state: 'held', lock: { pid: undefined } };
  }
  const lock = parseLock(text);
  if (lock.pid === undefined) return { state: 'held', lock };
  return (await isOwnerAlive({ ...lock, pid: lock.pid }, lockPath)) ? { state: 'held', lock } : { state: 'stale', text };
}

/** The process owning `dataDir`, if any (`url` once it serves; no `pid` for an unreadable lock); a gone process is no owner. */
export async function readEmbeddedLock(dataDir: string): Promise<EmbeddedLock | undefined> {
  const found = await inspectLock(join(dataDir, LOCK_FILE));
  return found.state === 'held' ? found.lock : undefined;
}

async function writeAside(path: string, content: string): Promise<string> {
  const aside = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(aside, content, { mode: 0o600, flag: 'wx' });
  return aside;
}

/** Creates the lock only if there is none, already holding its content: a reader never sees it empty. */
async function createLock(lockPath: string, content: string): Promise<boolean> {
  const aside = await writeAside(lockPath, content);
  try {
    await link(aside, lockPath);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
  } finally {
    await rm(aside, { force: true });
  }
  // A file system without hard links: exclusive create, then the content (a reader takes the empty file for held).
  try {
    await writeFile(lockPath, content, { mode: 0o600, flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Removes a stale lock unless replaced meanwhile: moved aside, compared with what was judged, put back if not that one. */
async function breakStaleLock(lockPath: string, staleText: string): Promise<void> {
  const aside = `${lockPath}.stale.${process.pid}.${randomBytes(6).toString('hex')}`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if ((await readFile(aside, 'utf8')) !== staleText) await link(aside, lockPath).catch(() => undefined);
  } finally {
    await rm(aside, { force: true });
  }
}

async function takeLock(lockPath: string): Promise<{ readonly taken: true } | { readonly taken: false; readonly holder: EmbeddedLock }> {
  const started = await processStartTime(process.pid);
  const content = JSON.stringify({ pid: process.pid, ...(started === undefined ? {} : { started }) } satisfies EmbeddedLock);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (!heldHere.has(lockPath) && (await createLock(lockPath, content))) {
      heldHere.add(lockPath);
      return { taken: true };
    }
    const found = await inspectLock(lockPath);
    if (found.state === 'held') return { taken: false, holder: found.lock };
    if (found.state === 'stale') await breakStaleLock(lockPath, found.text);
  }
  const found = await inspectLock(lockPath);
  return { taken: false, holder: found.state === 'held' ? found.lock : { pid: undefined } };
}

async function acquireLock(dataDir: string): Promise<string> {
  const lockPath = join(dataDir, LOCK_FILE);
  const outcome = await takeLock(lockPath);
  if (!outcome.taken) throw new EmbeddedDatabaseInUse(dataDir, outcome.holder);
  return lockPath;
}

/** The socket connection the server leaves free (EMBEDDED_SERVER_POOL) serves one command at a time: two at once would
 *  get "Too many connections". */
const COMMAND_LOCK_FILE = 'gatehouse-command.lock';

export async function takeCommandConnection(dataDir: string): Promise<{ readonly release: () => Promise<void> } | { readonly holder: EmbeddedLock }> {
  const lockPath = join(dataDir, COMMAND_LOCK_FILE);
  const outcome = await takeLock(lockPath);
  return outcome.taken ? { release: () => releaseLock(lockPath) } : { holder: outcome.holder };
}

async function releaseLock(lockPath: string): Promise<void> {
  heldHere.delete(lockPath);
  try {
    if (parseLock(await readFile(lockPath, 'utf8')).pid === process.pid) await rm(lockPath, { force: true });
  } catch {
    // already gone
  }
}

async function rewriteLock(lockPath: string, lock: EmbeddedLock): Promise<void> {
  await rename(await writeAside(lockPath, JSON.stringify(lock)), lockPath);
}

/** 0700 directories and 0600 files under `dir` (sockets and links left as they are). */
async function makePrivate(dir: string): Promise<void> {
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await makePrivate(path);
    else if (entry.isFile() && ((await lstat(path)).mode & 0o077) !== 0) await chmod(path, 0o600);
  }
}

/** PGlite creates its files (relations, WAL) with the process's umask, not PostgreSQL's 0600. Process-wide on purpose:
 *  nothing the service writes is meant for others. */
function restrictUmask(): void {
  process.umask(process.umask() | 0o077);
}

async function socketDirectory(dataDir: string): Promise<{ dir: string; remove: boolean }> {
  if (Buffer.byteLength(join(dataDir, SOCKET_FILE)) <= MAX_SOCKET_PATH) return { dir: dataDir, remove: false };
  return { dir: await mkdtemp(join(tmpdir(), 'gatehouse-')), remove: true };
}

const PGLITE_DIRECTORY = 'pg';

/** Whether `dataDir` holds a database (PGlite writes PG_VERSION when it creates one); looking creates nothing. */
export async function holdsEmbeddedDatabase(dataDir: string): Promise<boolean> {
  try {
    await lstat(join(dataDir, PGLITE_DIRECTORY, 'PG_VERSION'));
    return true;
  } catch (error) {
    // Anything but absence (a directory the user may not read) is for opening it to report.
    return !(error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR'));
  }
}

export async function openEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  restrictUmask();
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chmod(dataDir, 0o700);
  const lockPath = await acquireLock(dataDir);
  try {
    await makePrivate(dataDir);
    const { PGlite } = await import('@electric-sql/pglite');
    const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
    const db = await PGlite.create({
      dataDir: join(dataDir, PGLITE_DIRECTORY),
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
    });
    // A new directory is unpacked from PGlite's bundled image with its files' modes (0666), past the umask.
    await makePrivate(dataDir);
    const socket = await socketDirectory(dataDir);
    const socketPath = join(socket.dir, SOCKET_FILE);
    try {
      // A socket file left by a crash would refuse the listen; the lock says it is not anyone's.
      await rm(socketPath, { force: true });
      const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: EMBEDDED_MAX_CONNECTIONS });
      await server.start();
      await chmod(socketPath, 0o600);
      // node-postgres and libpq read a host starting with '/' as the directory of `.s.PGSQL.<port>`.
      const url = `postgresql://postgres@${encodeURIComponent(socket.dir)}:${SOCKET_PORT}/postgres`;
      const lock = JSON.parse(await readFile(lockPath, 'utf8')) as EmbeddedLock;
      return {
        url,
        poolMax: EMBEDDED_SERVER_POOL,
        publish: () => rewriteLock(lockPath, { ...lock, url }),
        async stop() {
          await server.stop();
          await db.close();
          await rm(socket.remove ? socket.dir : socketPath, { recursive: true, force: true });
          // PGlite sets the mode of a few files it writes through fopen (pg_internal.init: 0644), past the umask; the
          // 0700 directory keeps them from others meanwhile.
          await makePrivate(dataDir);
          await releaseLock(lockPath);
        },
      };
    } catch (error) {
      await db.close();
      if (socket.remove) await rm(socket.dir, { recursive: true, force: true });
      throw error;
    }
  } catch (error) {
    await releaseLock(lockPath);
    throw error;
  }
}
