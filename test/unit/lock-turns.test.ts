import { describe, expect, it } from 'vitest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { inTurn, KeptTurns, lockForTransaction, lockTurnsWaiting } from '../../src/db/advisory-lock.ts';

/** This process's turns at an advisory lock (src/db/advisory-lock.ts): in order per name, never across names. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

it('turns at one name run one at a time, in the order asked; a failed turn lets the next go; nothing is left waiting', async () => {
  const ran: string[] = [];
  const first = gate();
  const turns = [
    inTurn('a', async () => {
      ran.push('1 begins');
      await first.opened;
      ran.push('1 ends');
      throw new Error('refused');
    }),
    inTurn('a', async () => void ran.push('2')),
    inTurn('a', async () => void ran.push('3')),
  ];
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect(ran).toEqual(['1 begins']);
  expect(lockTurnsWaiting()).toBe(2);
  first.open();
  const outcomes = await Promise.allSettled(turns);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
  expect(ran).toEqual(['1 begins', '1 ends', '2', '3']);
  expect(lockTurnsWaiting()).toBe(0);
});

it('a turn at another name does not wait', async () => {
  const held = gate();
  const holding = inTurn('b', () => held.opened);
  expect(await inTurn('c', async () => 'ran')).toBe('ran');
  held.open();
  await holding;
});

it('several names are waited for in one order: two requests asking for them in opposite orders both run', async () => {
  const ran: string[] = [];
  await Promise.all([inTurn(['x', 'y'], async () => void ran.push('x, y')), inTurn(['y', 'x'], async () => void ran.push('y, x'))]);
  expect(ran.sort()).toEqual(['x, y', 'y, x']);
  expect(lockTurnsWaiting()).toBe(0);
});

it('a turn asked for again inside itself throws rather than waiting for itself; work it left behind may ask once it is over', async () => {
  let leftBehind!: Promise<string>;
  const ended = gate();
  await expect(inTurn('e', () => inTurn(['f', 'e'], async () => 'never'))).rejects.toThrow('already in the turn at advisory lock e');
  await inTurn('e', async () => {
    leftBehind = ended.opened.then(() => inTurn('e', async () => 'later'));
  });
  ended.open();
  expect(await leftBehind).toBe('later');
});

it('an advisory lock is not taken outside its turn, nor inside another name’s', async () => {
  // Refused before any statement: no database is needed to tell.
  const em = {} as EntityManager;
  await expect(lockForTransaction(em, 'g')).rejects.toThrow('advisory lock g asked for outside its turn');
  await expect(inTurn('h', () => lockForTransaction(em, 'g'))).rejects.toThrow('advisory lock g asked for outside its turn');
});

describe('the kept turns of a transaction that holds its locks until it ends (a request’s, under an Idempotency-Key)', () => {
  /** An EntityManager answering pg_try_advisory_xact_lock with `held`: the lock taken without waiting, or not. */
  const trying = (held: boolean) => ({ execute: async () => [{ held }] }) as unknown as EntityManager;
  const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

  it('a kept turn lasts past its work until the transaction ends; the transaction asking again is in it at once', async () => {
    const kept = new KeptTurns();
    const ran: string[] = [];
    await inTurn('k', async () => void ran.push('write'), kept);
    const next = inTurn('k', async () => void ran.push('next'));
    await tick();
    expect(lockTurnsWaiting()).toBe(1);
    await inTurn(['k', 'l'], () => inTurn('k', async () => void ran.push('again'), kept), kept);
    expect(ran).toEqual(['write', 'again']);
    // Another transaction's turn the work is in is not kept: asking for it would wait for itself.
    await expect(inTurn('m', () => inTurn('m', async () => 'never', kept))).rejects.toThrow('already in the turn at advisory lock m');
    kept.end();
    await next;
    expect(ran).toEqual(['write', 'again', 'next']);
    expect(lockTurnsWaiting()).toBe(0);
  });

  it('a turn still awaited when the transaction ends passes on once it comes; an ended transaction’s turns are plain ones', async () => {
    const held = gate();
    const holding = inTurn('p', () => held.opened);
    const kept = new KeptTurns();
    const asking = inTurn('p', async () => 'in turn', kept);
    await tick();
    kept.end();
    held.open();
    await holding;
    expect(await asking).toBe('in turn');
    expect(await inTurn('p', async () => 'after', kept)).toBe('after');
    expect(await inTurn('p', async () => 'free')).toBe('free');
    expect(lockTurnsWaiting()).toBe(0);
  });

  it('a lock sorting before one kept is not waited for: 503 when its turn or the lock is taken, else it is taken', async () => {
    const kept = new KeptTurns();
    await inTurn('t', async () => undefined, kept);
    const held = gate();
    const holding = inTurn('s', () => held.opened);
    await expect(inTurn('s', async () => 'never', kept)).rejects.toMatchObject({ code: 'service_unavailable', retryAfterSeconds: 1 });
    held.open();
    await holding;
    await expect(inTurn('s', () => lockForTransaction(trying(false), 's'), kept)).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(await inTurn('s', () => lockForTransaction(trying(true), 's').then(() => 'taken'), kept)).toBe('taken');
    kept.end();
    expect(await inTurn(['s', 't'], async () => 'free')).toBe('free');
  });
});
