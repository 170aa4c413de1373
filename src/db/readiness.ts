import { Socket } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';

/** Whether the database answers and takes writes, within `ms`: resolves, or rejects saying why. */
export type ReadinessCheck = (ms: number) => Promise<void>;

/** Rejects after `ms`, calling `onLate` first; `work` settles it sooner. */
async function within<T>(ms: number, work: Promise<T>, onLate: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onLate();
      reject(new Error(`the database did not answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** On a connection of its own, not a pooled one: a stall may leave a pooled connection stuck, and the check would say 503
 *  while fresh connections work again. Opening one also checks what every new pooled connection needs, read-only included. */
function serverCheck(url: string): ReadinessCheck {
  return async (ms) => {
    const socket = new Socket();
    const client = new pg.Client({ connectionString: url, stream: () => socket });
    // The check's errors are its rejection; a socket error after it (destroyed while connecting) is no one's.
    client.on('error', () => undefined);
    try {
      const asked = async () => {
        await client.connect();
        // A standby, or a database set read-only, answers but would fail every sign-in's write.
        const { rows } = await client.query<{ transaction_read_only: string }>('show transaction_read_only');
        await client.end();
        if (rows[0]?.transaction_read_only !== 'off') throw new Error('the database takes no writes (transaction_read_only is on: a standby?)');
      };
      await within(ms, asked(), () => socket.destroy());
    } finally {
      socket.destroy();
    }
  };
}

/** In-process and cannot stall, and its socket takes no connection beyond the pool's (STACK.md, rule 1): via the pool. */
function embeddedCheck(orm: MikroORM): ReadinessCheck {
  return async (ms) => {
    await within(ms, orm.em.getConnection().execute('select 1'), () => undefined);
  };
}

/** What /readyz runs, one at a time: requests meanwhile share its outcome, so a flood of probes opens one connection at a
 *  time. */
export function readinessCheck(orm: MikroORM, databaseUrl: string | undefined): ReadinessCheck {
  const check = databaseUrl === undefined ? embeddedCheck(orm) : serverCheck(databaseUrl);
  let running: Promise<void> | undefined;
  return (ms) => (running ??= check(ms).finally(() => (running = undefined)));
}
