import pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { GatehouseError, invalid } from '../../errors.ts';
import { scopedList } from '../pagination.ts';
import { isUuid } from '../../ids.ts';
import { COLUMNS, conditions, firstIdFrom, view, type AuditFilter, type AuditReader, type AuditRecordView, type AuditRow } from './search.ts';
import { asBackgroundWork } from '../../background-work.ts';

/** The audit log as a stream, resumable without loss or repeat on any instance. A record's place is `(tx, seq)`, read no
 *  further than the oldest running transaction (`pg_snapshot_xmin`), so nothing commits behind a place passed; a long
 *  transaction holds the stream back. Woken by LISTEN `gatehouse_audit` (embedded: a watch of the sequence), and read
 *  once a second too, for a wake that came before an older transaction ended. */

/** xid8 and bigint, as text. */
interface Place {
  readonly tx: string;
  readonly seq: string;
}

/** `seen`: the snapshot of a stream that starts now. Records committed before it opened, even above its place (a running
 *  transaction holds the place back), are passed over: all of them, or with `seenThrough` those up to that place. */
interface Start extends Place {
  readonly seen?: string;
  readonly seenThrough?: Place;
}

const ORIGIN: Place = { tx: '0', seq: '0' };
/** A subscriber behind reads again at once until it has caught up. */
const BATCH = 1_000;
const BACKSTOP_MS = 1_000;
/** With nothing to send, a stream still asks its credentials this often, so a revoked one ends on a quiet scope. */
const IDLE_CONFIRM_MS = 5_000;
const SEQUENCE_POLL_MS = 200;
const RELISTEN_MS = 1_000;

const CHANNEL = 'gatehouse_audit';

/** Records commit with their change, which the 60 s statement timeout keeps short: read this long after a stream's `to`,
 *  those before `to` are all committed. */
const SETTLED_AFTER_MS = 5 * 60_000;

/** Below the oldest transaction still running: nothing can commit behind it. */
const FINAL = 'tx < pg_snapshot_xmin(pg_current_snapshot())';

export interface AuditSink {
  /** The credentials from the database, asked after each read and before sending, so no record committed after a
   *  revocation is sent: their refusal, or the reader as they now stand, whose permissions say what records show. */
  confirm(): Promise<GatehouseError | AuditReader>;
  /** Resolves once the sink can take more (the client read what it had), or rejects to stop. */
  send(record: AuditRecordView): Promise<void>;
  /** The stream's place once every record read so far is sent, as a resumption token (streamStart takes it as a record
   *  id): a filtered stream may pass many records and send none, and must still resume where it was. */
  reached?(token: string): void;
  readonly closed: boolean;
}

/** How a following ends: `settled` once every record before `to` is sent, `refused` by `confirm`, else the sink closed. */
export type AuditFollowingEnd = 'settled' | { readonly refused: GatehouseError } | undefined;

export interface AuditStreamLog {
  warn(details: object, message: string): void;
}

/** Started by the first subscriber, so an instance nobody streams from holds no LISTEN connection. */
export class AuditWaker {
  readonly #orm: MikroORM;
  readonly #databaseUrl: string | undefined;
  readonly #listeners = new Map<string, Set<() => void>>();
  #client: pg.Client | undefined;
  #timer: NodeJS.Timeout | undefined;
  #started = false;
  #closed = false;
  #idle: (() => void) | undefined;
  #lastSequence: string | undefined;
  log: AuditStreamLog | undefined;

  constructor(orm: MikroORM, databaseUrl: string | undefined) {
    this.#orm = orm;
    this.#databaseUrl = databaseUrl;
  }

  subscribe(applicationId: string, wake: () => void): () => void {
    if (!this.#started && !this.#closed) this.#start();
    const listeners = this.#listeners.get(applicationId) ?? new Set();
    listeners.add(wake);
    this.#listeners.set(applicationId, listeners);
    return () => {
      listeners.delete(wake);
      if (listeners.size === 0) this.#listeners.delete(applicationId);
      if (this.#listeners.size === 0) this.#idle?.();
    };
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Its subscribers, woken, end (followAuditLog): once it resolves none reads the database, which may then close. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    clearTimeout(this.#timer);
    if (this.#listeners.size > 0) {
      const idle = new Promise<void>((resolve) => (this.#idle = resolve));
      this.#wake(undefined);
      await idle;
    }
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

  /** The embedded database serves this process only: an insert is seen by its sequence moving. */
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

const after = (a: Place, b: Place): boolean => {
  const [ta, tb] = [BigInt(a.tx), BigInt(b.tx)];
  return ta !== tb ? ta > tb : BigInt(a.seq) > BigInt(b.seq);
};

/** A place, signed for the stream's scope (the list cursors' codec): the tx and seq are no one else's to forge. */
const placeList = (scope: Scope) => scopedList(scope, 'audit-stream');
const PLACE_TOKEN = /^(\d+):(\d+)$/;

const resumeToken = (scope: Scope, place: Place): string => scope.services.cursors.encode(placeList(scope), `${place.tx}:${place.seq}`);

/** Undefined when it is not a token of this scope's stream. */
function placeOfToken(scope: Scope, token: string): Place | undefined {
  let value: string;
  try {
    value = scope.services.cursors.decode(placeList(scope), token);
  } catch (error) {
    if (error instanceof GatehouseError) return undefined;
    throw error;
  }
  const match = PLACE_TOKEN.exec(value);
  return match === null ? undefined : { tx: match[1]!, seq: match[2]! };
}

/** After a record of the scope; undefined when it has none such (or it was deleted). A record the list showed may not be
 *  final yet (a transaction older than its own still runs, and may commit records behind it): the start is then the last
 *  final record, passing over what the snapshot shows up to the record's place. One statement, so one snapshot. */
async function startAfterRecord(scope: Scope, recordId: string): Promise<Start | undefined> {
  const { where, params } = conditions(scope, {});
  const [row] = await executeOwned<{ tx: string; seq: string; final: boolean; last_tx: string | null; last_seq: string | null; seen: string }[]>(
    scope.em,
    scope.applicationId,
    `with record as (select tx, seq from audit_log where ${where} and id = ?)
     select record.tx::text as tx, record.seq::text as seq, record.tx < pg_snapshot_xmin(pg_current_snapshot()) as final, last.tx as last_tx, last.seq as last_seq,
            pg_current_snapshot()::text as seen
       from record left join lateral (
         select tx::text as tx, seq::text as seq from audit_log where @owner and ${FINAL}
          order by audit_log.tx desc, audit_log.seq desc limit 1) as last on true`,
    [...params, recordId],
  );
  if (row === undefined) return undefined;
  const place: Place = { tx: row.tx, seq: row.seq };
  if (row.final) return place;
  const last: Place = row.last_tx === null || row.last_seq === null ? ORIGIN : { tx: row.last_tx, seq: row.last_seq };
  return { ...last, seen: row.seen, seenThrough: place };
}

/** The snapshot is kept so what it saw is passed over (Start). */
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

/** The last final record (ORIGIN for none), and the bounds of the snapshot it was read in. */
async function head(scope: Scope): Promise<Place & { xmin: bigint; xmax: bigint }> {
  const [row] = await executeOwned<{ tx: string | null; seq: string | null; xmin: string; xmax: string }[]>(
    scope.em,
    scope.applicationId,
    // Ordered by the columns, not by their text (`tx` and `seq` below name the text).
    `select last.tx, last.seq, pg_snapshot_xmin(pg_current_snapshot())::text as xmin, pg_snapshot_xmax(pg_current_snapshot())::text as xmax
       from (select 1) as one left join lateral (
         select tx::text as tx, seq::text as seq from audit_log where @owner and ${FINAL}
          order by audit_log.tx desc, audit_log.seq desc limit 1) as last on true`,
  );
  return { tx: row?.tx ?? ORIGIN.tx, seq: row?.seq ?? ORIGIN.seq, xmin: BigInt(row!.xmin), xmax: BigInt(row!.xmax) };
}

/** Just before the first record stamped at or after `from` (its id, as the search's bound), and no later than the last
 *  final record, below which nothing commits any more: the records before `from` are not read through (a log's years).
 *  One statement, so one snapshot: a record it does not see is in a transaction at or above its xmin. */
async function placeBefore(scope: Scope, from: Date): Promise<Place> {
  const [row] = await executeOwned<{ first_tx: string | null; first_seq: string | null; last_tx: string | null; last_seq: string | null }[]>(
    scope.em,
    scope.applicationId,
    // The records since `from` by the primary key's range (materialized: not the stream index's walk from the start).
    `with since as materialized (select tx, seq from audit_log where @owner and id >= ?::uuid)
     select first.tx as first_tx, first.seq as first_seq, last.tx as last_tx, last.seq as last_seq
       from (select 1) as one
       left join lateral (select tx::text as tx, seq::text as seq from since order by since.tx, since.seq limit 1) as first on true
       left join lateral (
         select tx::text as tx, seq::text as seq from audit_log where @owner and ${FINAL}
          order by audit_log.tx desc, audit_log.seq desc limit 1) as last on true`,
    [firstIdFrom(from)],
  );
  const last: Place = row?.last_tx == null || row.last_seq == null ? ORIGIN : { tx: row.last_tx, seq: row.last_seq };
  if (row?.first_tx == null || row.first_seq == null) return last;
  const first: Place = { tx: row.first_tx, seq: (BigInt(row.first_seq) - 1n).toString() };
  return after(first, last) ? last : first;
}

/** After `lastEventId`, a record or a place (`reached`) of the scope (422 for another tenant's, as for an unknown one);
 *  else from the first record when `from` is given; else after the last record committed now. */
export async function streamStart(scope: Scope, filter: AuditFilter, lastEventId: string | undefined, field = 'Last-Event-ID'): Promise<Start> {
  conditions(scope, filter);
  if (lastEventId !== undefined) {
    const place = isUuid(lastEventId) ? await startAfterRecord(scope, lastEventId.toLowerCase()) : placeOfToken(scope, lastEventId);
    if (place === undefined) throw invalid(field, `${field} names no audit record or place of this stream (deleted by retention, or never one)`);
    return place;
  }
  return filter.from != null ? placeBefore(scope, filter.from) : now(scope);
}

/** A subscription resumes after a record (`after`), or where a stream was (`resumeAt`: a place its transport handed its
 *  client, or a record id), as `Last-Event-ID` takes either: streamStart's arguments, one of them at most. */
export function subscriptionResumption(after: string | null | undefined, resumeAt: string | null | undefined): [string | undefined, string] {
  if (after != null && resumeAt != null) throw invalid('resumeAt', 'Give after or resumeAt, not both: each says where the subscription resumes');
  return resumeAt != null ? [resumeAt, 'resumeAt'] : [after ?? undefined, 'after'];
}

/** Until the sink closes or refuses (a client too slow), the waker closes (shutdown), its credentials may no longer
 *  receive records (`confirm`), or, with `to`, every record before `to` is sent. */
export async function followAuditLog(scope: Scope, filter: AuditFilter, start: Start, sink: AuditSink, waker: AuditWaker): Promise<AuditFollowingEnd> {
  const { where, params } = conditions(scope, filter);
  let confirmedAt = Date.now();
  let reader: AuditReader = scope.principal;
  /** The refusal, else undefined once `reader` is the credentials' as they now stand. */
  const confirm = async (): Promise<GatehouseError | undefined> => {
    confirmedAt = Date.now();
    const answer = await sink.confirm();
    if (answer instanceof GatehouseError) return answer;
    reader = answer;
    return undefined;
  };
  let place: Place = start;
  let settledBelow: bigint | undefined;
  let woken = true;
  let wakeUp: (() => void) | undefined;
  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  // A resumption may send what its snapshot passed over (Start): older, never a repeat. No place before `seenThrough` is
  // handed out: from it, that record would come again.
  const reached = (at: Place) => {
    if (start.seenThrough === undefined || !after(start.seenThrough, at)) sink.reached?.(resumeToken(scope, at));
  };
  reached(start);
  const unsubscribe = waker.subscribe(scope.applicationId, wake);
  const backstop = setInterval(wake, BACKSTOP_MS).unref();
  try {
    for (;;) {
      if (!woken) await new Promise<void>((resolve) => (wakeUp = resolve));
      // Closed while it waited (its client gone, or the service's shutdown): no further read.
      if (sink.closed || waker.closed) return undefined;
      wakeUp = undefined;
      woken = false;
      if (Date.now() - confirmedAt >= IDLE_CONFIRM_MS) {
        const refused = await confirm();
        if (refused !== undefined) return { refused };
      }
      const readAt = Date.now();
      // Up to the last final record now, matching or not: a filter that matches rarely does not make each read longer.
      const until = await head(scope);
      // Read SETTLED_AFTER_MS after `to`, every record before `to` is in a transaction below that snapshot's xmax; once
      // none of those runs any more (xmin past it), they are all final, and sent with this window.
      if (filter.to != null && settledBelow === undefined && readAt > filter.to.getTime() + SETTLED_AFTER_MS) settledBelow = until.xmax;
      const settled = settledBelow !== undefined && until.xmin >= settledBelow;
      if (!after(until, place)) {
        if (settled) return 'settled';
        continue;
      }
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
                  (${where}) and not (coalesce(pg_visible_in_snapshot(w.tx, ?::pg_snapshot), false)
                    and (?::xid8 is null or (w.tx, w.seq) <= (?::xid8, ?::bigint))) as matches
             from w order by w.tx, w.seq`,
          [place.tx, place.seq, until.tx, until.seq, BATCH, ...params, start.seen ?? null, ...Array<string | null>(2).fill(start.seenThrough?.tx ?? null), start.seenThrough?.seq ?? null],
        );
        if (rows.some((row) => row.matches)) {
          const refused = await confirm();
          if (refused !== undefined) return { refused };
        }
        for (const row of rows) {
          if (sink.closed) return undefined;
          if (row.matches) await sink.send(await view(reader, row));
          place = { tx: row.tx, seq: row.seq };
        }
        if (rows.length < BATCH) break;
      }
      place = { tx: until.tx, seq: until.seq };
      reached(place);
      if (settled) return 'settled';
    }
  } finally {
    clearInterval(backstop);
    unsubscribe();
  }
}

/** followAuditLog as an async iterator (a subscription's source): each record is read once the consumer took the one
 *  before. Completes once settled; a database failure, like `confirm`'s refusal, is thrown after the records sent before
 *  it, so the client resumes with `after` rather than taking the stream for complete. `return()` ends at the next wake. */
export function auditRecordIterator(
  scope: Scope,
  filter: AuditFilter,
  start: Start,
  waker: AuditWaker,
  confirm: AuditSink['confirm'],
  reached?: AuditSink['reached'],
): AsyncIterableIterator<AuditRecordView> {
  let closed = false;
  let failure: Error | undefined;
  /** The consumer waiting for a record, and the sender waiting for the consumer. */
  let taker: { resolve(result: IteratorResult<AuditRecordView>): void; reject(error: Error): void } | undefined;
  let handed: (() => void) | undefined;
  const offered: AuditRecordView[] = [];
  const finish = () => {
    closed = true;
    handed?.();
    if (failure === undefined) taker?.resolve({ value: undefined, done: true });
    else taker?.reject(failure);
    taker = undefined;
  };
  const sink: AuditSink = {
    get closed() {
      return closed;
    },
    confirm,
    ...(reached === undefined ? {} : { reached }),
    send: (record) =>
      new Promise<void>((resolve) => {
        handed = resolve;
        if (taker === undefined) offered.push(record);
        else {
          taker.resolve({ value: record, done: false });
          taker = undefined;
        }
      }),
  };
  void followAuditLog(scope, filter, start, sink, waker).then(
    (end) => {
      if (typeof end === 'object') failure = end.refused;
      finish();
    },
    (error: unknown) => {
      failure = error instanceof Error ? error : new Error(String(error));
      finish();
    },
  );
  const iterator: AsyncIterableIterator<AuditRecordView> = {
    next: () => {
      // Taking a record lets the sender read on.
      handed?.();
      handed = undefined;
      const record = offered.shift();
      if (record !== undefined) return Promise.resolve({ value: record, done: false });
      if (failure !== undefined) return Promise.reject(failure);
      if (closed) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => (taker = { resolve, reject }));
    },
    return: async () => {
      finish();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
