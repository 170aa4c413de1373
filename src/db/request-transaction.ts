import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { KeptTurns } from './advisory-lock.ts';

type State = 'idle' | 'open' | 'refused' | 'ended';

/** One transaction for all a request writes, so the Idempotency-Key store commits the answer with the writes or neither.
 *  Begun at the first write, so checks, hashing and DNS lookups hold none; from then every EntityManager of the request
 *  runs in it (reads must see its writes; the embedded database serves no other connection). Its advisory locks, and this
 *  process's turns at them, are held until it ends. */
export class RequestTransaction {
  readonly #em: EntityManager;
  readonly #onBegin: (em: EntityManager) => Promise<void>;
  readonly #forks = new Set<EntityManager>();
  readonly #afterCommit: (() => Promise<void>)[] = [];
  readonly #turns = new KeptTurns();
  #state: State = 'idle';
  #begun: Promise<void> | undefined;

  /** `onBegin` runs first in the transaction; what it throws refuses the request's writes (the transaction ends). */
  constructor(orm: MikroORM, onBegin: (em: EntityManager) => Promise<void>) {
    this.#em = orm.em.fork();
    this.#onBegin = onBegin;
  }

  get em(): EntityManager {
    return this.#em;
  }

  /** This process's turns at the advisory locks the transaction takes (inTurn), kept until it ends. */
  get turns(): KeptTurns {
    return this.#turns;
  }

  fork(): EntityManager {
    const fork = this.#em.fork({ keepTransactionContext: true });
    this.#forks.add(fork);
    return fork;
  }

  begin(): Promise<void> {
    this.#begun ??= this.#open();
    return this.#begun;
  }

  async #open(): Promise<void> {
    await this.#em.begin();
    try {
      await this.#onBegin(this.#em);
    } catch (error) {
      this.#state = 'refused';
      await this.#em.rollback();
      throw error;
    }
    this.#state = 'open';
    for (const fork of this.#forks) fork.setTransactionContext(this.#em.getTransactionContext());
  }

  /** Runs `action` once the transaction has committed (at once if none is open); never if it rolls back. */
  async afterCommit(action: () => Promise<void>): Promise<void> {
    if (this.#state === 'open') this.#afterCommit.push(action);
    else await action();
  }

  async commit(): Promise<void> {
    if (this.#state !== 'open') throw new Error('no request transaction to commit');
    try {
      await this.#em.commit();
    } catch (error) {
      // Its connection must not stay in a transaction: on the embedded database that would hold every other one.
      await this.#em.rollback().catch(() => undefined);
      this.#end();
      throw error;
    }
    this.#end();
    for (const action of this.#afterCommit.splice(0)) await action();
  }

  /** Ends the transaction without its writes, and the turns taken for it even when it never began (refused, or failed). */
  async rollback(): Promise<void> {
    try {
      if (this.#state === 'open') await this.#em.rollback();
    } finally {
      this.#end();
      this.#afterCommit.length = 0;
    }
  }

  #end(): void {
    this.#state = 'ended';
    for (const fork of this.#forks) fork.resetTransactionContext();
    this.#turns.end();
  }
}
