import pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Scope } from '../context.ts';
import { executeOwned } from '../db/owned-sql.ts';
import { invalid } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { COLUMNS, conditions, view, type AuditFilter, type AuditRecordView, type AuditRow } from './audit-search.ts';
import { asBackgroundWork } from '../background-work.ts';

/**
 * The audit log as a stream: each subscriber reads the records of its scope and filters in their stream order, from
 * where it last was, whenever it is woken.
 *
 * Order and resumption: a record's place is `(tx, seq)`, its transaction's id and its insertion sequence (migration
 * 0024), and a read goes no further than the oldest transaction still running (`pg_snapshot_xmin`): every record
 * below is committed or never will be, and no record can commit behind a place already passed. So a subscriber that
 * remembers the last place it sent, or is told a record id to resume after (`Last-Event-ID`), neither loses nor
 * repeats a record, on any instance, across restarts. A long transaction holds the stream back until it ends; a
 * stream that starts now passes over what its start's snapshot saw (`Start`).
 *
 * Waking: on a database server, each instance LISTENs to `gatehouse_audit`, which each insert notifies at commit with
 * its application; on the embedded database (one process) the instance watches the records' sequence. Each
 * subscriber also reads once a second, which bounds the delay when a wake came before an older transaction ended.
 */

/** A place in the stream: a transaction id (xid8, as text) and a sequence number (bigint, as text). */
interface Place {
  readonly tx: string;
  readonly seq: string;
}

/**
 * Where a subscriber starts; `seen`, for one that starts now: the snapshot (pg_snapshot, as text) of its start. Records
 * that snapshot saw had committed before the stream opened, even those above its place (a transaction still running
 * anywhere on the server holds the place back), so they are passed over, not sent.
 */
interface Start extends Place {
  readonly seen?: string;
}

/** Before every record. */
const ORIGIN: Place = { tx: '0', seq: '0' };
/** Records read at once: a subscriber behind reads again at once until it has caught up. */
const BATCH = 1_000;
/** How often a subscriber reads unwoken. */
const BACKSTOP_MS = 1_000;
/** How often the embedded database's sequence is looked at. */
const SEQUENCE_POLL_MS = 200;
/** A LISTEN connection lost is opened again after this long. */
const RELISTEN_MS = 1_000;

const CHANNEL = 'gatehouse_audit';

/** Final records only: below the oldest transaction still running. */
const FINAL = 'tx < pg_snapshot_xmin(pg_current_snapshot())';

/** Where a subscriber's records go. */
export interface AuditSink {
  /** Sends a record; resolves once the sink can take more (the client read what it had), or rejects to stop. */
  send(record: AuditRecordView): Promise<void>;
  readonly closed: boolean;
}

export interface AuditStreamLog {
  warn(details: object, message: string): void;
}

/**
 * This instance's waking of subscribers, by application. Started by the first subscriber, so that an instance nobody
 * streams from holds no LISTEN connection.
 */
export class AuditWaker {
  readonly #orm: MikroORM;
  readonly #databaseUrl: string | undefined;
  readonly #listeners = new Map<string, Set<() => void>>();
  #client: pg.Client | undefined;
  #timer: NodeJS.Timeout | undefined;
  #started = false;
  #closed = false;
  #lastSequence: string | undefined;
  log: AuditStreamLog | undefined;

  constructor(orm: MikroORM, databaseUrl: string | undefined) {
    this.#orm = orm;
    this.#databaseUrl = databaseUrl;
  }

  /** Calls `wake` when records of the application may have committed; returns the unsubscription. */
  subscribe(applicationId: string, wake: () => void): () => void {
    if (!this.#started) this.#start();
    const listeners = this.#listeners.get(applicationId) ?? new Set();
    listeners.add(wake);
    this.#listeners.set(applicationId, listeners);
    return () => {
      listeners.delete(wake);
      if (listeners.size === 0) this.#listeners.delete(applicationId);
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  #wake(applicationId: string | undefined): void {
    const groups = applicationId === undefined ? [...this.#listeners.values()] : [this.#listeners.get(applicationId) ?? []];
    for (const listeners of groups) for (const wake of listeners) wake();
  }

  #start(): void {
    this.#started = true;
    if (this.#databaseUrl === undefined) {
      this.#timer = asBackgroundWork('audit-stream', () => setInterval(() => void this.#watchSequence(), SEQUENCE_POLL_MS).unref());
      return;
    }
    void this.#listen(this.#databaseUrl);
  }

  /** The embedded database serves this process only: a record's insert is seen by its sequence moving. */
  async #watchSequence(): Promise<void> {
    if (this.#listeners.size === 0) return;
    try {
      const [row] = await this.#orm.em.getConnection().execute<{ value: string }[]>(
        `select last_value::text as value from audit_log_seq_seq`,
      );
      if (row !== undefined && row.value !== this.#lastSequence) {
        this.#lastSequence = row.value;
        this.#wake(undefined);
      }
    } catch (error) {
      this.log?.warn({ err: error }, 'audit stream: the sequence could not be read');
    }
  }

  async #listen(url: string): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: url });
    const retry = (error: unknown) => {
      if (this.#client !== client || this.#closed) return;
      this.#client = undefined;
      this.log?.warn({ err: error }, 'audit stream: LISTEN connection lost, opening another');
      client.end().catch(() => undefined);
      this.#timer = setTimeout(() => void this.#listen(url), RELISTEN_MS).unref();
    };
    this.#client = client;
    client.on('error', retry);
    client.on('end', () => retry(new Error('connection ended')));
    client.on('notification', (message) => this.#wake(message.payload !== undefined && isUuid(message.payload) ? message.payload : undefined));
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      // Whatever committed while no connection listened is read now.
      this.#wake(undefined);
    } catch (error) {
      retry(error);
    }
  }
}

/** Whether place `a` comes after place `b`. */
const after = (a: Place, b: Place): boolean => {
  const [ta, tb] = [BigInt(a.tx), BigInt(b.tx)];
  return ta !== tb ? ta > tb : BigInt(a.seq) > BigInt(b.seq);
};

/** The place of a record of the scope, by id; undefined when the scope has none such (or it was deleted). */
async function placeOf(scope: Scope, recordId: string): Promise<Place | undefined> {
  const { where, params } = conditions(scope, {});
  const [row] = await executeOwned<{ tx: string; seq: string }[]>(
    scope.em,
    scope.applicationId,
    `select tx::text as tx, seq::text as seq from audit_log where ${where} and id = ?`,
    [...params, recordId],
  );
  return row;
}

/** The last final place of the scope's application now, and the snapshot that read it: where a stream starts now. */
async function now(scope: Scope): Promise<Start> {
  const [row] = await executeOwned<{ tx: string | null; seq: string | null; seen: string }[]>(
    scope.em,
    scope.applicationId,
    `select last.tx, last.seq, pg_current_snapshot()::text as seen from (select 1) as one left join lateral (
       select tx::text as tx, seq::text as seq from audit_log where @owner and ${FINAL}
        order by audit_log.tx desc, audit_log.seq desc limit 1) as last on true`,
  );
  return { tx: row?.tx ?? ORIGIN.tx, seq: row?.seq ?? ORIGIN.seq, seen: row!.seen };
}

/** The last final place of the scope's application now: a subscriber reads up to it. */
async function head(scope: Scope): Promise<Place> {
  const [row] = await executeOwned<{ tx: string; seq: string }[]>(
    scope.em,
    scope.applicationId,
    // Ordered by the columns, not by their text (`tx` and `seq` below name the text).
    `select tx::text as tx, seq::text as seq from audit_log where @owner and ${FINAL}
      order by audit_log.tx desc, audit_log.seq desc limit 1`,
  );
  return row ?? ORIGIN;
}

/**
 * Where a stream starts: after the record `lastEventId` names (a record of the scope; 422 otherwise, an id of another
 * tenant's record included, which is not told apart from an unknown one); else from the first record, when `from`
 * asks for the records since then; else after the last record committed now.
 */
export async function streamStart(scope: Scope, filter: AuditFilter, lastEventId: string | undefined): Promise<Start> {
  // The filter is checked before anything is read.
  conditions(scope, filter);
  if (lastEventId !== undefined) {
    const place = isUuid(lastEventId) ? await placeOf(scope, lastEventId.toLowerCase()) : undefined;
    if (place === undefined) throw invalid('Last-Event-ID', 'Last-Event-ID names no audit record of this stream (deleted by retention, or never one)');
    return place;
  }
  return filter.from != null ? ORIGIN : now(scope);
}

/**
 * Sends the scope's records that match `filter` after `start` to `sink`, as they commit, until the sink closes or
 * refuses (a client too slow: the transport drops it). Resolves when it stops.
 */
export async function followAuditLog(scope: Scope, filter: AuditFilter, start: Start, sink: AuditSink, waker: AuditWaker): Promise<void> {
  const { where, params } = conditions(scope, filter);
  let place: Place = start;
  let woken = true;
  let wakeUp: (() => void) | undefined;
  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  const unsubscribe = waker.subscribe(scope.applicationId, wake);
  const backstop = setInterval(wake, BACKSTOP_MS).unref();
  try {
    while (!sink.closed) {
      if (!woken) await new Promise<void>((resolve) => (wakeUp = resolve));
      wakeUp = undefined;
      woken = false;
      // Up to the last final record now, matching or not: a filter that matches rarely does not make each read longer.
      const until = await head(scope);
      if (!after(until, place)) continue;
      for (;;) {
        // The window is read by its own index range (materialized: the planner may not trade it for a filter's index,
        // which would scan every match of the filter), the filters applied to it after.
        const rows = await executeOwned<(AuditRow & Place & { matches: boolean })[]>(
          scope.em,
          scope.applicationId,
          `with w as materialized (
             select * from audit_log where @owner and (tx, seq) > (?::xid8, ?::bigint) and (tx, seq) <= (?::xid8, ?::bigint)
              order by tx, seq limit ?)
           select ${COLUMNS}, tx::text as tx, seq::text as seq,
                  (${where}) and not coalesce(pg_visible_in_snapshot(w.tx, ?::pg_snapshot), false) as matches
             from w order by w.tx, w.seq`,
          [place.tx, place.seq, until.tx, until.seq, BATCH, ...params, start.seen ?? null],
        );
        for (const row of rows) {
          if (sink.closed) return;
          if (row.matches) await sink.send(view(row));
          place = { tx: row.tx, seq: row.seq };
        }
        if (rows.length < BATCH) break;
      }
      place = until;
    }
  } finally {
    clearInterval(backstop);
    unsubscribe();
  }
}
