import type { SqlRunner } from '../../db/owned-sql.ts';

export const dashboardUrl = (publicUrl: string): string => `${publicUrl}/dashboard/`;

/** The dashboard's client among `c`, a console's clients: the one the start keeps (`ensureDashboardClient`), the page
 *  serves and the operators sign in with, the lowest id of these. Binds the dashboard's URL. */
export const DASHBOARD_CLIENT_SQL = `c.type = 'spa' and c.management_api and c.revoked_at is null and c.redirect_uris = array[?]::text[]`;

/** The dashboard's client of console `consoleId` at `publicUrl`, if it has one (an EntityManager reads in its transaction). */
export async function dashboardClientIdOf(runner: SqlRunner, consoleId: string, publicUrl: string): Promise<string | null> {
  const [row] = (await runner.execute(
    `select c.id from oauth_client as c join application as a on a.id = c.application_id and a.console
      where c.application_id = ? and ${DASHBOARD_CLIENT_SQL} order by c.id limit 1`,
    [consoleId, dashboardUrl(publicUrl)],
  )) as { id: string }[];
  return row?.id ?? null;
}

