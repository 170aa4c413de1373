import { Kind, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { graphqlOperations } from '../observability/metrics.ts';

export interface OperationLabels {
  readonly type: string;
  readonly field: string;
}

/** By type and root field, a closed set, not by the client's name for it: only the schema's own fields name a series. */
export function operationLabels(schema: GraphQLSchema, operation: OperationDefinitionNode | undefined): OperationLabels {
  const root = operation?.selectionSet.selections.find((selection) => selection.kind === Kind.FIELD);
  const rootType = operation === undefined ? undefined : schema.getRootType(operation.operation);
  return {
    type: operation?.operation ?? 'none',
    field: root !== undefined && rootType?.getFields()[root.name.value] !== undefined ? root.name.value : 'none',
  };
}

/** `outcome`: `ok`, the first error's code, or `error` when it has none. */
export function countOperation(labels: OperationLabels, errors: readonly unknown[], firstCode: unknown): void {
  graphqlOperations.inc({ ...labels, outcome: errors.length === 0 ? 'ok' : typeof firstCode === 'string' ? firstCode : 'error' });
}
