import pg from 'pg';
import { DATABASE_TIMEOUTS } from './orm.ts';

/** A DATABASE_URL as a message names it: host, port and database, never its credentials. */
export function describeDatabaseUrl(url: string): string {
  const parsed = new URL(url);
  return `"${decodeURIComponent(parsed.pathname.slice(1))}" at ${parsed.hostname}:${parsed.port === '' ? '5432' : parsed.port}`;
}

/** Where DATABASE_URL points: no database, one without Gatehouse's schema (new, or another program's), or Gatehouse's. */
export type DatabaseState = 'missing' | 'foreign' | 'gatehouse';

/** On a connection of its own: opening the database would create a missing one (MikroORM's ensureDatabase) and migrate
 *  any other into Gatehouse's. Rejects with the server's reason when it cannot be reached or refuses. */
export async function databaseState(url: string): Promise<DatabaseState> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: DATABASE_TIMEOUTS.connectMs });
  // A socket error after the connection failed is the rejection's, not an unhandled event's.
  client.on('error', () => undefined);
  try {
    await client.connect();
    // The migrations' own table, which every release's first migration leaves.
    const { rows } = await client.query<{ migrated: boolean }>(`select to_regclass('mikro_orm_migrations') is not null as migrated`);
    return rows[0]?.migrated === true ? 'gatehouse' : 'foreign';
  } catch (error) {
    // invalid_catalog_name: the server answered, and has no database of that name.
    if ((error as { code?: unknown }).code === '3D000') return 'missing';
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}
