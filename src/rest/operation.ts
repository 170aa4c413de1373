import { madeOnce } from '../made-once.ts';
import { Kind, print, type DocumentNode, type OperationDefinitionNode, type TypeNode } from 'graphql';

/** One operation of operations.graphql: its generated typed document, which holds the operation and the fragments it uses. */
export interface RestOperation {
  readonly name: string;
  readonly document: DocumentNode;
  /** The document as text, for GraphQL clients (e.g. the isolation suite). */
  readonly query: string;
  readonly rootField: string;
  readonly variables: ReadonlyMap<string, TypeNode>;
  readonly definition: OperationDefinitionNode;
}

/** Each document's, made once: every server of a process mounts the same table (the tests start one per file). */
const made = new WeakMap<DocumentNode, RestOperation>();

export function restOperation(document: DocumentNode): RestOperation {
  return madeOnce(made, document, () => makeRestOperation(document));
}

function makeRestOperation(document: DocumentNode): RestOperation {
  const definition = document.definitions.find((node) => node.kind === Kind.OPERATION_DEFINITION);
  const name = definition?.name?.value;
  const [root, ...others] = definition?.selectionSet.selections ?? [];
  // The REST response is the root field's value, so there must be exactly one.
  if (definition === undefined || name === undefined || root?.kind !== Kind.FIELD || others.length > 0) {
    throw new Error(`operations.graphql: ${name ?? 'an operation'} must select exactly one root field`);
  }
  return {
    name,
    document,
    query: print(document),
    rootField: (root.alias ?? root.name).value,
    variables: new Map(definition.variableDefinitions?.map((v) => [v.variable.name.value, v.type]) ?? []),
    definition,
  };
}
