import { startTestApp } from '../test/support/app.ts';
import { tenantPageWithConfiguration } from '../test/support/configuration-page.ts';

export interface StatementCounts {
  readonly n: number;
  /** GET …/tenants?pageSize=N. */
  readonly page: number;
  /** The page with every tenant's configuration in one GraphQL request: the loaders' batching shows here. */
  readonly pageWithConfiguration: number | undefined;
  /** N × GET …/tenants/{id}/configuration, summed: what a REST client pays for the same. */
  readonly configurationRest: number | undefined;
}

/** Counts the SQL statements the service sends per request, in process through its `onQuery` hook. */
export async function countStatements(sizes: readonly number[]): Promise<StatementCounts[]> {
  const configurationQuery = tenantPageWithConfiguration();
  const app = await startTestApp();
  try {
    const appId = app.root.applicationId;
    const tenants = `/applications/${appId}/tenants`;
    for (let i = 0; i < Math.max(...sizes); i += 1) {
      const created = await app.http.post(tenants, { name: `Bench tenant ${i}` });
      if (created.status !== 201) throw new Error(`creating a tenant: ${created.status} ${JSON.stringify(created.body)}`);
    }
    const counted = async (run: () => Promise<unknown>) => {
      app.queries.length = 0;
      await run();
      return app.queries.length;
    };
    // Warm the service's process-wide caches so the first measured request pays only its own statements.
    await app.http.get(`${tenants}?pageSize=1`);

    const rows: StatementCounts[] = [];
    for (const n of sizes) {
      let ids: string[] = [];
      const page = await counted(async () => {
        const response = await app.http.get(`${tenants}?pageSize=${n}`);
        ids = (response.body.data as { id: string }[]).map((tenant) => tenant.id);
      });
      if (ids.length !== n) throw new Error(`the tenants page held ${ids.length} tenants, not ${n}`);
      let pageWithConfigurationCount: number | undefined;
      let configurationRest: number | undefined;
      if (configurationQuery !== undefined) {
        pageWithConfigurationCount = await counted(async () => {
          const response = await app.http.graphql(configurationQuery, { appId, pageSize: n });
          if (response.status !== 200 || response.body.errors !== undefined) throw new Error(`page with configuration: ${JSON.stringify(response.body.errors)}`);
          if (response.body.data.tenants.data.length !== n) throw new Error('the page with configuration is short');
        });
        configurationRest = await counted(async () => {
          for (const id of ids) {
            const response = await app.http.get(`${tenants}/${id}/configuration`);
            if (response.status !== 200) throw new Error(`configuration: ${response.status} ${JSON.stringify(response.body)}`);
          }
        });
      }
      rows.push({ n, page, pageWithConfiguration: pageWithConfigurationCount, configurationRest });
    }
    return rows;
  } finally {
    await app.close();
  }
}
