import { Kind, parse, print, visit, type FieldNode } from 'graphql';
import type { RestOperation } from '../src/rest/operation.ts';
import { expandRoutes, ROUTES } from '../src/rest/routes.ts';
import { startTestApp } from '../test/support/app.ts';

const CONFIGURATION_URL = '/applications/:appId/tenants/:tenantId/configuration';

export interface StatementCounts {
  readonly n: number;
  /** GET …/tenants?pageSize=N. */
  readonly page: number;
  /** The page with every tenant's configuration in one GraphQL request: the loaders' batching shows here. */
  readonly pageWithConfiguration: number | undefined;
  /** N × GET …/tenants/{id}/configuration, summed: what a REST client pays for the same. */
  readonly configurationRest: number | undefined;
}

/**
 * One GraphQL request for a page of N tenants with each tenant's configuration, selected as the configuration route's
 * own operation selects it: the question of N+1 for a dashboard listing tenants.
 */
function pageWithConfiguration(operation: RestOperation): string {
  const configuration = parse(operation.query);
  const definition = configuration.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const selection = (definition?.selectionSet.selections[0] as FieldNode | undefined)?.selectionSet;
  const page = parse('query TenantPage($appId: UUID!, $pageSize: Int) { tenants(appId: $appId, pageSize: $pageSize) { data { id configuration } next } }');
  const grafted = visit(page, { Field: (node) => (node.name.value === 'configuration' ? { ...node, selectionSet: selection } : undefined) });
  const fragments = configuration.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
  return print({ ...grafted, definitions: [...grafted.definitions, ...fragments] });
}

/** Counts the SQL statements the service sends per request, in process through its `onQuery` hook. */
export async function countStatements(sizes: readonly number[]): Promise<StatementCounts[]> {
  const route = expandRoutes(ROUTES).find((r) => r.method === 'GET' && r.url === CONFIGURATION_URL);
  const configurationQuery = route === undefined ? undefined : pageWithConfiguration(route.operation);
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
