import { Kind, parse, print, visit, type FieldNode } from 'graphql';
import { expandRoutes, ROUTES } from '../../src/rest/routes.ts';

const CONFIGURATION_URL = '/applications/:appId/tenants/:tenantId/configuration';

/**
 * One GraphQL request for a page of tenants (`$appId`, `$pageSize`) with each tenant's configuration, selected as the
 * route `GET …/tenants/{tenantId}/configuration` selects it: what a dashboard listing tenants asks for. Undefined
 * while the route table has no such route.
 */
export function tenantPageWithConfiguration(): string | undefined {
  const route = expandRoutes(ROUTES).find((r) => r.method === 'GET' && r.url === CONFIGURATION_URL);
  if (route === undefined) return undefined;
  const configuration = parse(route.operation.query);
  const definition = configuration.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const selection = (definition?.selectionSet.selections[0] as FieldNode | undefined)?.selectionSet;
  const page = parse('query TenantPage($appId: UUID!, $pageSize: Int) { tenants(appId: $appId, pageSize: $pageSize) { data { id configuration } next } }');
  const grafted = visit(page, { Field: (node) => (node.name.value === 'configuration' ? { ...node, selectionSet: selection } : undefined) });
  const fragments = configuration.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
  return print({ ...grafted, definitions: [...grafted.definitions, ...fragments] });
}
