import { Kind, parse, print, visit, type FieldNode, type OperationDefinitionNode, type ValueNode } from 'graphql';
import { loadOperations, type RestOperation } from '../src/rest/adapter.ts';
import { expandRoutes, ROUTES } from '../src/rest/routes.ts';
import { startTestApp } from '../test/support/app.ts';

const CONFIGURATION_URL = '/applications/:appId/tenants/:tenantId/configuration';

export interface StatementCounts {
  readonly n: number;
  /** GET …/tenants?pageSize=N. */
  readonly page: number;
  /** N × GET …/tenants/{id}/configuration, summed: what a REST client pays for a page of configurations. */
  readonly configurationRest: number | undefined;
  /** The N configurations in one GraphQL request (aliased root fields): the loaders' batching shows here. */
  readonly configurationGraphql: number | undefined;
}

/**
 * The configuration route's operation with its root field repeated once per tenant, each aliased and given its ids as
 * literals, so one request asks for N configurations.
 */
function batchedDocument(operation: RestOperation, appId: string, tenantIds: readonly string[]): string {
  const document = parse(operation.query);
  const literals = (tenantId: string): Record<string, ValueNode> => ({
    appId: { kind: Kind.STRING, value: appId },
    tenantId: { kind: Kind.STRING, value: tenantId },
  });
  const definitions = document.definitions.map((definition) => {
    if (definition.kind !== Kind.OPERATION_DEFINITION) return definition;
    const root = definition.selectionSet.selections[0] as FieldNode;
    const selections = tenantIds.map((tenantId, index): FieldNode =>
      visit({ ...root, alias: { kind: Kind.NAME, value: `t${index}` } }, { Variable: (node) => literals(tenantId)[node.name.value] }),
    );
    const batched: OperationDefinitionNode = {
      ...definition,
      variableDefinitions: definition.variableDefinitions?.filter((v) => !['appId', 'tenantId'].includes(v.variable.name.value)),
      selectionSet: { ...definition.selectionSet, selections },
    };
    return batched;
  });
  return print({ ...document, definitions });
}

/** Counts the SQL statements the service sends per request, in process through its `onQuery` hook. */
export async function countStatements(sizes: readonly number[]): Promise<StatementCounts[]> {
  const route = expandRoutes(ROUTES).find((r) => r.method === 'GET' && r.url === CONFIGURATION_URL);
  const operation = route === undefined ? undefined : loadOperations().get(route.operation);
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
      let configurationRest: number | undefined;
      let configurationGraphql: number | undefined;
      if (operation !== undefined) {
        configurationRest = await counted(async () => {
          for (const id of ids) {
            const response = await app.http.get(`${tenants}/${id}/configuration`);
            if (response.status !== 200) throw new Error(`configuration: ${response.status} ${JSON.stringify(response.body)}`);
          }
        });
        configurationGraphql = await counted(async () => {
          const response = await app.http.graphql(batchedDocument(operation, appId, ids));
          if (response.status !== 200 || response.body.errors !== undefined) throw new Error(`configuration: ${JSON.stringify(response.body.errors)}`);
        });
      }
      rows.push({ n, page, configurationRest, configurationGraphql });
    }
    return rows;
  } finally {
    await app.close();
  }
}
