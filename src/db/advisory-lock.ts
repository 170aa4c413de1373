import type { Connection, EntityManager, Transaction } from '@mikro-orm/postgresql';

/**
 * Takes PostgreSQL's transaction-scoped advisory lock `name` on `em`'s transaction and holds it until that transaction
 * ends: every instance that asks for the same name waits its turn, so a check-then-write inside stays true.
 */
export async function lockForTransaction(em: EntityManager, name: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', [name]);
}

/** The same lock on a transaction of the connection itself (`trx`), for work that runs below the EntityManager. */
export async function lockForConnectionTransaction(connection: Connection, trx: Transaction, name: string): Promise<void> {
  await connection.execute('select pg_advisory_xact_lock(hashtext(?))', [name], 'all', trx);
}
