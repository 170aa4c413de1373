import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  Lexer,
  OperationTypeNode,
  parse,
  SchemaMetaFieldDef,
  Source,
  TokenKind,
  TypeMetaFieldDef,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLOutputType,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { seriesPointsAtMost } from '../domain/analytics.ts';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../domain/pagination.ts';
import { invalid, type GatehouseError } from '../errors.ts';
import { JSON_BODY_MAX_DEPTH } from '../http/json-body.ts';

/** Without these one request could run hundreds of aliased root fields or resolve millions of values. */
export const OPERATION_LIMITS = {
  /** Aliases counted: a dashboard page's reads in one request. */
  queryRootFields: 20,
  /** One write per request, as in REST (its rate-limit count, Idempotency-Key, audit request id). */
  mutationRootFields: 1,
  /** Twice GraphiQL's introspection query (~52,000), a fifth of 300 aliases of a list inside introspection's lists. */
  cost: 100_000,
  /** About twice GraphiQL's introspection query; resolving nests as deep as the request, so deeper could exhaust the stack. */
  depth: 25,
  /** Checked while parsing; every later step takes time in the document's size. */
  tokens: 10_000,
  /**
   * Checked on tokens before parsing (documentNestingRefusal): graphql-js parses recursively, so a document nested a
   * few thousand deep, well within `tokens`, would exhaust the stack.
   */
  nesting: JSON_BODY_MAX_DEPTH,
} as const;

/** About what introspection's lists hold; pages and series hold what their arguments ask (pageItems, seriesItems). */
const ITEMS_PER_LIST = 10;

/** Counting over every user each run. Priced rather than memoized: aliases naming another tenant would miss the memo. */
const AGGREGATE_FIELDS: ReadonlySet<string> = new Set(['Query.mfaAdoption', 'Query.applicationStats']);
const AGGREGATES_PER_REQUEST = 4;
const AGGREGATE_COST = OPERATION_LIMITS.cost / (AGGREGATES_PER_REQUEST + 1);

/** A variable counts as the most a page may hold: unknown at validation, which Apollo reuses per document. */
function pageItems(field: FieldNode): number {
  const argument = field.arguments?.find((each) => each.name.value === 'pageSize');
  if (argument === undefined || argument.value.kind === Kind.NULL) return PAGE_SIZE_DEFAULT;
  if (argument.value.kind === Kind.INT) return Math.min(Math.max(Number(argument.value.value), 1), PAGE_SIZE_MAX);
  return PAGE_SIZE_MAX;
}

/** A variable counts as the widest it may be. */
function seriesItems(field: FieldNode): number {
  const literal = (name: string): string | null | undefined => {
    const value = field.arguments?.find((each) => each.name.value === name)?.value;
    if (value === undefined || value.kind === Kind.NULL) return null;
    return value.kind === Kind.STRING || value.kind === Kind.ENUM ? value.value : undefined;
  };
  return seriesPointsAtMost({ from: literal('from'), to: literal('to'), interval: literal('interval') });
}

function listItems(field: GraphQLField<unknown, unknown>, selection: FieldNode): number | undefined {
  const takes = (name: string) => field.args.some((argument) => argument.name === name);
  if (takes('pageSize')) return pageItems(selection);
  return takes('interval') ? seriesItems(selection) : undefined;
}

function fieldDefinition(context: ValidationContext, parentType: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (name === SchemaMetaFieldDef.name && parentType === context.getSchema().getQueryType()) return SchemaMetaFieldDef;
  if (name === TypeMetaFieldDef.name && parentType === context.getSchema().getQueryType()) return TypeMetaFieldDef;
  return isObjectType(parentType) || isInterfaceType(parentType) ? parentType.getFields()[name] : undefined;
}

function itemsPerValue(type: GraphQLOutputType, items?: number): number {
  const nullable = getNullableType(type);
  return isListType(nullable) ? (items ?? ITEMS_PER_LIST) * itemsPerValue(nullable.ofType) : 1;
}

/**
 * A fragment's cost is computed once however often it is spread, so the estimate takes time linear in the document
 * even when the cost is exponential in it.
 */
function estimatedCost(context: ValidationContext, operation: OperationDefinitionNode): number {
  const fragmentCosts = new Map<string, number>();
  const measure = (selectionSet: SelectionSetNode, parentType: GraphQLCompositeType, items?: number): number => {
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        cost += AGGREGATE_FIELDS.has(`${parentType.name}.${selection.name.value}`) ? 1 + AGGREGATE_COST : 1;
        const field = fieldDefinition(context, parentType, selection.name.value);
        const fieldType = field === undefined ? undefined : getNamedType(field.type);
        if (selection.selectionSet !== undefined && field !== undefined && isCompositeType(fieldType)) {
          cost += itemsPerValue(field.type, items) * measure(selection.selectionSet, fieldType, listItems(field, selection));
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition === undefined ? parentType : context.getSchema().getType(selection.typeCondition.name.value);
        if (isCompositeType(condition)) cost += measure(selection.selectionSet, condition, items);
      } else {
        // Per item count: a fragment on a page type may be spread in pages of several sizes.
        const name = selection.name.value;
        const measured = `${name}\0${items ?? ''}`;
        // A fragment spreading itself: a cycle, which NoFragmentCyclesRule refuses.
        if (!fragmentCosts.has(measured)) {
          fragmentCosts.set(measured, 0);
          const fragment = context.getFragment(name);
          const condition = fragment == null ? undefined : context.getSchema().getType(fragment.typeCondition.name.value);
          if (fragment != null && isCompositeType(condition)) fragmentCosts.set(measured, measure(fragment.selectionSet, condition, items));
        }
        cost += fragmentCosts.get(measured)!;
      }
    }
    return cost;
  };
  const rootType = context.getSchema().getRootType(operation.operation);
  return rootType === undefined || rootType === null ? 0 : measure(operation.selectionSet, rootType);
}

function selectionDepth(context: ValidationContext, operation: OperationDefinitionNode): number {
  const fragmentDepths = new Map<string, number>();
  const measure = (selectionSet: SelectionSetNode): number => {
    let deepest = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        deepest = Math.max(deepest, 1 + (selection.selectionSet === undefined ? 0 : measure(selection.selectionSet)));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        deepest = Math.max(deepest, measure(selection.selectionSet));
      } else {
        const name = selection.name.value;
        // A cycle counts nothing here: NoFragmentCyclesRule refuses it.
        if (!fragmentDepths.has(name)) {
          fragmentDepths.set(name, 0);
          const fragment = context.getFragment(name);
          if (fragment != null) fragmentDepths.set(name, measure(fragment.selectionSet));
        }
        deepest = Math.max(deepest, fragmentDepths.get(name)!);
      }
    }
    return deepest;
  };
  return measure(operation.selectionSet);
}

function rootResponseKeys(context: ValidationContext, operation: OperationDefinitionNode): Set<string> {
  const keys = new Set<string>();
  const spread = new Set<string>();
  const collect = (selectionSet: SelectionSetNode): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value !== '__typename') keys.add(selection.alias?.value ?? selection.name.value);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet);
      } else if (!spread.has(selection.name.value)) {
        spread.add(selection.name.value);
        const fragment = context.getFragment(selection.name.value);
        if (fragment != null) collect(fragment.selectionSet);
      }
    }
  };
  collect(operation.selectionSet);
  return keys;
}

/** graphql-js 16 has no rule for a missing root type (17's will); only execution throws, which Apollo calls internal. */
export const KnownOperationTypesRule: ValidationRule = (context: ValidationContext): ASTVisitor => ({
  OperationDefinition(operation) {
    if (context.getSchema().getRootType(operation.operation) == null) {
      context.reportError(new GraphQLError(`The API has no ${operation.operation} operations`, { nodes: operation }));
    }
    return false;
  },
});

/** Refused before anything runs. */
export const OperationLimitsRule: ValidationRule = (context: ValidationContext): ASTVisitor => ({
  OperationDefinition(operation) {
    const rootFields = rootResponseKeys(context, operation).size;
    const mutation = operation.operation === OperationTypeNode.MUTATION;
    const maxRootFields = mutation ? OPERATION_LIMITS.mutationRootFields : OPERATION_LIMITS.queryRootFields;
    if (rootFields > maxRootFields) {
      const kind = mutation ? 'A mutation' : 'A query';
      context.reportError(
        new GraphQLError(`${kind} may select at most ${maxRootFields} root field${maxRootFields === 1 ? '' : 's'} (this one selects ${rootFields}): send several requests`, {
          nodes: operation,
        }),
      );
      return false;
    }
    const depth = selectionDepth(context, operation);
    if (depth > OPERATION_LIMITS.depth) {
      context.reportError(new GraphQLError(`The operation nests fields ${depth} deep, where ${OPERATION_LIMITS.depth} are allowed`, { nodes: operation }));
      return false;
    }
    const cost = estimatedCost(context, operation);
    if (cost > OPERATION_LIMITS.cost) {
      context.reportError(
        new GraphQLError(
          `The operation asks for too much: about ${cost} values, counting ${ITEMS_PER_LIST} items per list, where ${OPERATION_LIMITS.cost} are allowed (a page’s list counts as many as its pageSize, an analytics series’ as the periods of its range, a count over all users ${AGGREGATE_COST}). Select fewer fields, or fewer inside lists`,
          { nodes: operation },
        ),
      );
    }
    return false;
  },
});

type Bracket = 'selections' | 'arguments' | 'value';

const NESTED_TOO_DEEP: Readonly<Record<Exclude<Bracket, 'arguments'>, string>> = {
  selections: `The document nests selection sets deeper than ${OPERATION_LIMITS.nesting} levels`,
  value: `The document holds a value nested deeper than ${OPERATION_LIMITS.nesting} levels`,
};

/**
 * Read from tokens (graphql-js's lexer does not recurse). Undefined when it does not lex or exceeds `tokens`: the
 * parser refuses those with its own words.
 */
export function documentNestingRefusal(source: string): GatehouseError | undefined {
  const lexer = new Lexer(new Source(source));
  const open: Bracket[] = [];
  const depth: Record<Bracket, number> = { selections: 0, arguments: 0, value: 0 };
  try {
    for (let token = lexer.advance(), count = 1; token.kind !== TokenKind.EOF && count <= OPERATION_LIMITS.tokens; token = lexer.advance(), count++) {
      const opened = bracketOpened(token.kind, depth.arguments > 0);
      if (opened !== undefined) {
        open.push(opened);
        depth[opened] += 1;
        if (opened !== 'arguments' && depth[opened] > OPERATION_LIMITS.nesting) return invalid('query', NESTED_TOO_DEEP[opened]);
      } else if (token.kind === TokenKind.BRACE_R || token.kind === TokenKind.BRACKET_R || token.kind === TokenKind.PAREN_R) {
        const closed = open.pop();
        // Never opened: a syntax error, the parser's to report.
        if (closed === undefined) return undefined;
        depth[closed] -= 1;
      }
    }
  } catch (error) {
    if (error instanceof GraphQLError) return undefined;
    throw error;
  }
  return undefined;
}

/** A brace inside an argument list is an input object. */
function bracketOpened(kind: TokenKind, inArguments: boolean): Bracket | undefined {
  if (kind === TokenKind.PAREN_L) return 'arguments';
  if (kind === TokenKind.BRACKET_L) return 'value';
  if (kind === TokenKind.BRACE_L) return inArguments ? 'value' : 'selections';
  return undefined;
}

export function parseClientDocument(source: string | Source): DocumentNode {
  const refusal = documentNestingRefusal(typeof source === 'string' ? source : source.body);
  if (refusal !== undefined) throw refusal;
  return parse(source, { maxTokens: OPERATION_LIMITS.tokens });
}
