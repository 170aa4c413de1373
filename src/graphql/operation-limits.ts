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
import { GatehouseError } from '../errors.ts';
import { JSON_BODY_MAX_DEPTH } from '../json-body.ts';

/**
 * How much one GraphQL request may ask for: the rate limit counts requests, and without these one request could run
 * hundreds of aliased root fields or resolve millions of values (introspection and fragment "bombs").
 */
export const OPERATION_LIMITS = {
  /** Root fields of a query (aliases counted): a dashboard page's reads in one request. */
  queryRootFields: 20,
  /** Root fields of a mutation: one write per request, as in REST (its rate-limit count, its Idempotency-Key, its audit request id). */
  mutationRootFields: 1,
  /**
   * The values a request may be estimated to resolve (estimatedCost): twice what GraphiQL's full introspection query
   * costs (about 52,000), a fifth of what 300 aliases of one list inside introspection's lists cost.
   */
  cost: 100_000,
  /**
   * Fields nested in fields: about twice what GraphiQL's introspection query nests (its type references, about 13),
   * four times the deepest page of the schema's own. Resolving nests as deep as the request: a deeper one could
   * exhaust the stack.
   */
  depth: 25,
  /**
   * Tokens of a document, checked while it is parsed (Apollo's parseOptions): 60 times GraphiQL's introspection
   * query. Every later step (validation, estimates, execution, the response) takes time in the document's size.
   */
  tokens: 10_000,
  /**
   * Brackets nested in a document, counted apart in values and in selection sets, checked on its tokens before parsing
   * (documentNestingRefusal): as deep as a JSON body may nest. graphql-js parses recursively, so a document nested a
   * few thousand deep, well within `tokens`, would exhaust the stack.
   */
  nesting: JSON_BODY_MAX_DEPTH,
} as const;

/**
 * Each list is assumed to hold this many items: about what introspection's lists (types, fields, arguments) hold on
 * average. A page's list (the `data` of a field taking `pageSize`) holds what the page asks for instead (pageItems),
 * and an analytics series' (the `data` of a field taking `interval`) the points its range asks for (seriesItems).
 */
const ITEMS_PER_LIST = 10;

/**
 * Fields that count over every user of an application (or of a tenant) each time they run, however little they answer.
 * Priced so that at most AGGREGATES_PER_REQUEST fit in one request: a price rather than a per-request memo of their
 * answers, which aliases naming another tenant or application would each miss.
 */
const AGGREGATE_FIELDS: ReadonlySet<string> = new Set(['Query.mfaAdoption', 'Query.applicationStats']);
const AGGREGATES_PER_REQUEST = 4;
const AGGREGATE_COST = OPERATION_LIMITS.cost / (AGGREGATES_PER_REQUEST + 1);

/**
 * The items a page holds, as its `pageSize` asks: the literal's value, the default when left out, and the most a page
 * may hold when a variable says (unknown while validating, and Apollo reuses a document's validation).
 */
function pageItems(field: FieldNode): number {
  const argument = field.arguments?.find((each) => each.name.value === 'pageSize');
  if (argument === undefined || argument.value.kind === Kind.NULL) return PAGE_SIZE_DEFAULT;
  if (argument.value.kind === Kind.INT) return Math.min(Math.max(Number(argument.value.value), 1), PAGE_SIZE_MAX);
  return PAGE_SIZE_MAX;
}

/**
 * The points a series holds at most (seriesPointsAtMost): its literal `from`, `to` and `interval` as given, a variable
 * as the widest it may be.
 */
function seriesItems(field: FieldNode): number {
  const literal = (name: string): string | null | undefined => {
    const value = field.arguments?.find((each) => each.name.value === name)?.value;
    if (value === undefined || value.kind === Kind.NULL) return null;
    return value.kind === Kind.STRING || value.kind === Kind.ENUM ? value.value : undefined;
  };
  return seriesPointsAtMost({ from: literal('from'), to: literal('to'), interval: literal('interval') });
}

/** The items of the lists in a field's selection: a page's or a series' as its arguments ask, else undefined (ITEMS_PER_LIST). */
function listItems(field: GraphQLField<unknown, unknown>, selection: FieldNode): number | undefined {
  const takes = (name: string) => field.args.some((argument) => argument.name === name);
  if (takes('pageSize')) return pageItems(selection);
  return takes('interval') ? seriesItems(selection) : undefined;
}

/** The definition of a field of `parentType`, meta-fields included; undefined for an unknown field (another rule reports it). */
function fieldDefinition(context: ValidationContext, parentType: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (name === SchemaMetaFieldDef.name && parentType === context.getSchema().getQueryType()) return SchemaMetaFieldDef;
  if (name === TypeMetaFieldDef.name && parentType === context.getSchema().getQueryType()) return TypeMetaFieldDef;
  return isObjectType(parentType) || isInterfaceType(parentType) ? parentType.getFields()[name] : undefined;
}

/**
 * How many items a value of the type stands for: ITEMS_PER_LIST per list wrapper (a list of lists: squared), or, for a
 * field of a page or a series, `items` in its outer list.
 */
function itemsPerValue(type: GraphQLOutputType, items?: number): number {
  const nullable = getNullableType(type);
  return isListType(nullable) ? (items ?? ITEMS_PER_LIST) * itemsPerValue(nullable.ofType) : 1;
}

/**
 * The values a selection set resolves for one item of `parentType`: each field counts once per item, and a field's
 * own selection counts once per item of the field's value. A fragment's cost is computed once per fragment, however
 * often it is spread, so that the estimate takes time linear in the document even when the cost is exponential in it.
 */
function estimatedCost(context: ValidationContext, operation: OperationDefinitionNode): number {
  const fragmentCosts = new Map<string, number>();
  // `items`: the selection set is a page's or a series' (listItems), whose lists hold that many items.
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
        // Measured once per item count it is spread with (a fragment on a page type may be spread in pages of several sizes).
        const name = selection.name.value;
        const measured = `${name}\0${items ?? ''}`;
        // A fragment being measured that spreads itself again: a cycle, which NoFragmentCyclesRule refuses.
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

/** The deepest nesting of fields in an operation, through its fragments (each measured once). */
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
        // As in estimatedCost: a cycle counts nothing here, NoFragmentCyclesRule refuses it.
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

/** The response keys (alias, else name) of an operation's root fields, through its fragments, `__typename` aside. */
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

/**
 * An operation of a kind the schema has no root type for (a `subscription`) is refused as 422 `validation_error`:
 * graphql-js 16 has no rule for it (17's KnownOperationTypesRule will) and only execution throws, which Apollo calls internal.
 */
export const KnownOperationTypesRule: ValidationRule = (context: ValidationContext): ASTVisitor => ({
  OperationDefinition(operation) {
    if (context.getSchema().getRootType(operation.operation) == null) {
      context.reportError(new GraphQLError(`The API has no ${operation.operation} operations`, { nodes: operation }));
    }
    return false;
  },
});

/** The validation rule: a request over a limit is refused before anything runs (422 `validation_error`). */
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

/** What an open bracket holds: a selection set, an argument list (or variable definitions), a value. */
type Bracket = 'selections' | 'arguments' | 'value';

const NESTED_TOO_DEEP: Readonly<Record<Exclude<Bracket, 'arguments'>, string>> = {
  selections: `The document nests selection sets deeper than ${OPERATION_LIMITS.nesting} levels`,
  value: `The document holds a value nested deeper than ${OPERATION_LIMITS.nesting} levels`,
};

/**
 * A document nesting deeper than OPERATION_LIMITS.nesting, refused (422 `validation_error`, as the other limits) from
 * its tokens, which graphql-js's lexer reads without recursing. Undefined when it nests less, and when it does not lex
 * or holds more than OPERATION_LIMITS.tokens tokens: the parser refuses those with its own words.
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
        if (opened !== 'arguments' && depth[opened] > OPERATION_LIMITS.nesting) return new GatehouseError('validation_error', NESTED_TOO_DEEP[opened]);
      } else if (token.kind === TokenKind.BRACE_R || token.kind === TokenKind.BRACKET_R || token.kind === TokenKind.PAREN_R) {
        const closed = open.pop();
        // A bracket closed that was never opened: a syntax error, the parser's to report.
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

/** The bracket a token opens, if any: a brace is a selection set, unless inside an argument list, where it is an input object. */
function bracketOpened(kind: TokenKind, inArguments: boolean): Bracket | undefined {
  if (kind === TokenKind.PAREN_L) return 'arguments';
  if (kind === TokenKind.BRACKET_L) return 'value';
  if (kind === TokenKind.BRACE_L) return inArguments ? 'value' : 'selections';
  return undefined;
}

/** A client's document parsed under this file's limits: its nesting checked first, its tokens counted while parsing. */
export function parseClientDocument(source: string | Source): DocumentNode {
  const refusal = documentNestingRefusal(typeof source === 'string' ? source : source.body);
  if (refusal !== undefined) throw refusal;
  return parse(source, { maxTokens: OPERATION_LIMITS.tokens });
}
