import {
  GraphQLError,
  isInputType,
  Kind,
  typeFromAST,
  validate,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type VariableDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { OperationRule } from '../auth/operation-permissions.ts';
import type { RequestContext } from '../context.ts';
import { GatehouseError } from '../errors.ts';
import { operationRule } from './authorize-operation.ts';
import { arrayAsObjectAt, holdsInputObjects } from './array-as-object.ts';
import { holdsLists } from './input-refusals.ts';
import { variablesRefusal } from './variable-coercion.ts';
import { madeOnce } from '../made-once.ts';

/** `data` is absent when the request failed before execution. */
export interface OperationResult {
  readonly data: Record<string, unknown> | null | undefined;
  readonly errors: readonly GraphQLFormattedError[];
}

export interface PreparedOperation {
  /** Checked before its input is read. */
  readonly rule: OperationRule;
  run(variables: Record<string, unknown>, context: RequestContext): Promise<OperationResult>;
}

export interface OperationExecutor {
  /** Throws at startup, not at the first request. */
  prepare(name: string, document: DocumentNode): PreparedOperation;
}

/** graphql-jit's own refusal, should graphql-js accept what it refused (they follow the same rules). */
function variablesRefusedBy(errors: readonly GraphQLError[] | undefined): GraphQLError {
  const refused = new GatehouseError('validation_error', errors?.[0]?.message ?? 'Invalid variables');
  return new GraphQLError(refused.message, { originalError: refused });
}

type FormatError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

/**
 * The REST adapter's operations on Apollo's schema, resolvers and error serializer, without Apollo's per-request
 * pipeline. graphql-jit executes (compiled once, several times cheaper per field); graphql-js words refusals as /graphql does.
 */
export function createOperationExecutor(schema: GraphQLSchema, formatError: FormatError): OperationExecutor {
  return {
    prepare(name, document) {
      const { compiled, variableDefinitions, unboundedRefusals, objectVariables, rule } = compiledOperation(schema, name, document);
      return {
        rule,
        async run(variables, context) {
          const refusedAnswer = (refused: GraphQLError) => ({ data: undefined, errors: [formatError(refused.toJSON(), refused)] });
          const checkFirst = unboundedRefusals || holdsArrayAsObject(objectVariables, variables);
          const refusedFirst = checkFirst ? variablesRefusal(schema, variableDefinitions, variables) : undefined;
          if (refusedFirst !== undefined) return refusedAnswer(refusedFirst);
          const result = await compiled.query(undefined, context, variables);
          // No `data`: graphql-jit refused the variables, before any resolver ran.
          if (!('data' in result)) return refusedAnswer(variablesRefusal(schema, variableDefinitions, variables) ?? variablesRefusedBy(result.errors));
          const errors = (result.errors ?? []).map((failed) => formatError(failed.toJSON(), failed));
          return { data: result.data, errors };
        },
      };
    },
  };
}

interface CompiledOperation {
  readonly compiled: CompiledQuery;
  readonly variableDefinitions: readonly VariableDefinitionNode[];
  /** graphql-jit makes an error per invalid list item, without bound; graphql-js stops at INPUT_REFUSALS_MAX. */
  readonly unboundedRefusals: boolean;
  /** Those whose value may hold an input object, which graphql-jit takes as a JSON array too. */
  readonly objectVariables: readonly (readonly [name: string, type: GraphQLInputType])[];
  readonly rule: OperationRule;
}

/** Whatever number of servers a process starts on a schema. */
const compiledBySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, CompiledOperation>>();

function compiledOperation(schema: GraphQLSchema, name: string, document: DocumentNode): CompiledOperation {
  const compiledDocuments = madeOnce(compiledBySchema, schema, () => new WeakMap<DocumentNode, CompiledOperation>());
  return madeOnce(compiledDocuments, document, () => compileOperation(schema, name, document));
}

function compileOperation(schema: GraphQLSchema, name: string, document: DocumentNode): CompiledOperation {
  const [error] = validate(schema, document);
  if (error !== undefined) throw new Error(`operations.graphql: ${name} does not match the schema: ${error.message}`);
  const compiled = compileQuery(schema, document, name);
  if (!isCompiledQuery(compiled)) throw new Error(`operations.graphql: ${name} does not compile: ${compiled.errors?.[0]?.message}`);
  const definition = document.definitions.find(
    (node): node is OperationDefinitionNode => node.kind === Kind.OPERATION_DEFINITION && node.name?.value === name,
  );
  if (definition === undefined) throw new Error(`operations.graphql: no operation named ${name}`);
  const variableDefinitions = definition.variableDefinitions ?? [];
  const typed = variableDefinitions.flatMap((variable) => {
    const type = typeFromAST(schema, variable.type);
    return type !== undefined && isInputType(type) ? [[variable.variable.name.value, type] as const] : [];
  });
  const unboundedRefusals = typed.some(([, type]) => holdsLists(type));
  const objectVariables = typed.filter(([, type]) => holdsInputObjects(type));
  return { compiled, variableDefinitions, unboundedRefusals, objectVariables, rule: operationRule(schema, document, definition) };
}

function holdsArrayAsObject(objectVariables: CompiledOperation['objectVariables'], variables: Record<string, unknown>): boolean {
  return objectVariables.some(([name, type]) => arrayAsObjectAt(type, variables[name]) !== undefined);
}
