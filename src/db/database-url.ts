import pg from 'pg';
import { DATABASE_TIMEOUTS } from './orm.ts';

/** A DATABASE_URL as a message names it: host, port and database, never its credentials. */
export function describeDatabaseUrl(url: string): string {
  const parsed = new URL(url);
  return `"${decodeURIComponent(parsed.pathname.slice(1))}" at ${parsed.hostname}:${parsed.port === '' ? '5432' : parsed.port}`;
}

/** On a connection of its own: opening the database would create a missing one (MikroORM's ensureDatabase). Rejects with
 *  the server's reason when it cannot be reached or refuses. */
export async function databaseExists(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: DATABASE_TIMEOUTS.connectMs });
  // A socket error after the connection failed is the rejection's, not an unhandled event's.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } catch (error) {
    // invalid_catalog_name: the server answered, and has no database of that name.
    if ((error as { code?: unknown }).code === '3D000') return false;
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}
