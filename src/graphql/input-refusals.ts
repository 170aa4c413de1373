import {
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  type GraphQLType,
  type Source,
  type VariableDefinitionNode,
} from 'graphql';
import { parseClientDocument } from './operation-limits.ts';

/** Memoized per type. */
const typesHoldingLists = new WeakMap<GraphQLInputType, boolean>();

export function holdsLists(type: GraphQLInputType, visiting = new Set<GraphQLInputType>()): boolean {
  const known = typesHoldingLists.get(type);
  if (known !== undefined) return known;
  const nullable = getNullableType(type);
  // A type holding itself: only its other fields can add a list.
  if (visiting.has(nullable)) return false;
  visiting.add(nullable);
  const holds = isListType(nullable) || (isInputObjectType(nullable) && Object.values(nullable.getFields()).some((field) => holdsLists(field.type, visiting)));
  visiting.delete(nullable);
  if (visiting.size === 0) typesHoldingLists.set(type, holds);
  return holds;
}

/**
 * graphql-js's refusals reworded for the contract (`field` as REST names it). graphql-js quotes the refused value,
 * which may be a secret (an API key in the wrong place): only its own words are read, never the value or a client's key.
 */
export interface InputRefusal {
  readonly message: string;
  readonly field?: string;
}

type Segment = string | number;

type Problem = 'invalid' | 'missing' | 'unknown';

interface Refusal {
  readonly problem: Problem;
  /** From the argument: `['input', 'tenancyConfig', 'brandingScope']`. */
  readonly path: readonly Segment[] | undefined;
  /** Undefined for an unknown field. */
  readonly expected: GraphQLType | undefined;
}

/** `Field "name" …` while coercing a variable, `Field "CreateTenantInput.name" …` while validating a literal. */
const MISSING_FIELD = /^Field "(?:\w+\.)?(\w+)" of required type "[^"]+" was not provided\.$/;
/** The input type's own field names, never the client's key. */
const SUGGESTIONS = /^ Did you mean "\w+"(?:(?:, |,? or )"\w+")*\?$/;
const NAME = /^[_A-Za-z]\w*$/;
const MISSING_ARGUMENT = /^(?:Field|Directive) "[^"]+" argument "(\w+)" of type "([^"]+)" is required, but it was not provided\.$/;
const UNKNOWN_ARGUMENT = /^Unknown argument "/;
/** A variable is not one: its value is coerced, not validated. */
const LITERAL_KINDS: ReadonlySet<Kind> = new Set([Kind.STRING, Kind.INT, Kind.FLOAT, Kind.BOOLEAN, Kind.NULL, Kind.ENUM, Kind.LIST, Kind.OBJECT]);

export function readInputRefusal(schema: GraphQLSchema, error: GraphQLError): InputRefusal | undefined {
  if (error.message.startsWith('Syntax Error: ')) return { message: withoutTokenValue(error.message) };
  const refusal = literalRefusal(schema, error);
  return refusal === undefined ? (variablePositionRefusal(schema, error) ?? argumentRefusal(error)) : word(refusal);
}

/** An empty key, or one holding quotes or dots, would make a path that reads as another (`config.` or `a.b`). */
export function isName(key: string): boolean {
  return NAME.test(key);
}

/** A syntax error quotes the offending token, perhaps a misplaced secret literal: only its kind is named. */
function withoutTokenValue(message: string): string {
  return message.replace(/\b(String|BlockString|Int|Float) ".*"\.$/s, '$1.');
}

/** graphql-js's message quotes no value here, so only `field` is added. */
function argumentRefusal(error: GraphQLError): InputRefusal | undefined {
  const [node] = error.nodes ?? [];
  const missing = MISSING_ARGUMENT.exec(error.message)?.[1];
  const unknown = node?.kind === Kind.ARGUMENT && UNKNOWN_ARGUMENT.test(error.message) ? node.name.value : undefined;
  const field = missing ?? unknown;
  return field === undefined ? undefined : { message: error.message, field };
}

/** VariablesInAllowedPositionRule quotes no value; `field` is where the variable is used (the error's second node). */
function variablePositionRefusal(schema: GraphQLSchema, error: GraphQLError): InputRefusal | undefined {
  const [definition, use] = error.nodes ?? [];
  if (definition?.kind !== Kind.VARIABLE_DEFINITION || use?.kind !== Kind.VARIABLE || error.source === undefined) return undefined;
  const located = inputsOf(schema, error.source).byPosition.get(positionOf(use));
  return located === undefined ? undefined : { message: error.message, field: fieldName(located.path) };
}

export function argumentOf(schema: GraphQLSchema, definition: VariableDefinitionNode): Located {
  return usageOf(schema, definition) ?? { path: [definition.variable.name.value], type: typeFromAST(schema, definition.type) };
}

export function variableRefusal(argument: Located, problem: 'missing' | 'invalid'): InputRefusal {
  return word({ problem, path: argument.path, expected: argument.type });
}

/** The refused value itself is never read. */
export function coercionRefusal(argument: Located, segments: readonly Segment[], reason: string): InputRefusal {
  const missing = MISSING_FIELD.exec(reason)?.[1];
  if (missing !== undefined) {
    const path = [...segments, missing];
    return word({ problem: 'missing', path: [...argument.path, ...path], expected: typeAt(argument.type, path) });
  }
  const unknown = unknownKeyOf(reason, typeAt(argument.type, segments));
  if (unknown !== undefined) return word({ problem: 'unknown', path: [...argument.path, ...segments, unknown], expected: undefined });
  return word({ problem: 'invalid', path: [...argument.path, ...segments], expected: typeAt(argument.type, segments) });
}

/**
 * The key may hold anything, graphql-js's own words included; what follows it holds only the schema's names, so the key
 * ends where the type's sentence last begins.
 */
function unknownKeyOf(reason: string, type: GraphQLType | undefined): string | undefined {
  const holder = type === undefined ? undefined : getNullableType(type);
  if (!isInputObjectType(holder)) return undefined;
  const lead = 'Field "';
  const sentence = `" is not defined by type "${holder.name}".`;
  const end = reason.lastIndexOf(sentence);
  if (!reason.startsWith(lead) || end < lead.length) return undefined;
  const suggestions = reason.slice(end + sentence.length);
  return suggestions === '' || SUGGESTIONS.test(suggestions) ? reason.slice(lead.length, end) : undefined;
}

function typeAt(type: GraphQLType | undefined, path: readonly Segment[]): GraphQLType | undefined {
  let current = type;
  for (const segment of path) {
    const nullable = current === undefined ? undefined : getNullableType(current);
    if (typeof segment === 'number') current = isListType(nullable) ? nullable.ofType : undefined;
    else current = isInputObjectType(nullable) ? nullable.getFields()[segment]?.type : undefined;
  }
  return current;
}

/**
 * Read again from the definition's source (graphql-js keeps no link from a node to its parents). The REST adapter's
 * documents carry no source, but their variables are named after their arguments: the variable is the answer.
 */
function usageOf(schema: GraphQLSchema, definition: VariableDefinitionNode): Located | undefined {
  const source = definition.loc?.source;
  if (source === undefined) return undefined;
  const { document, variableUses } = inputsOf(schema, source);
  const declaring = document.definitions.find(
    (node) => node.kind === Kind.OPERATION_DEFINITION && node.variableDefinitions?.some((variable) => variable.loc?.start === definition.loc?.start),
  );
  const fragments = document.definitions.filter((node) => node.kind === Kind.FRAGMENT_DEFINITION);
  const name = definition.variable.name.value;
  for (const scope of declaring === undefined ? fragments : [declaring, ...fragments]) {
    const use = variableUses.get(scope)?.get(name);
    if (use !== undefined) return use;
  }
  return undefined;
}

function literalRefusal(schema: GraphQLSchema, error: GraphQLError): Refusal | undefined {
  const [node] = error.nodes ?? [];
  if (node === undefined) return undefined;
  const missingField = node.kind === Kind.OBJECT ? MISSING_FIELD.exec(error.message)?.[1] : undefined;
  // A literal's key is a name the lexer read: the node, not the message, says which.
  const unknown = node.kind === Kind.OBJECT_FIELD && error.message.startsWith(`Field "${node.name.value}" is not defined by type "`);
  if (missingField === undefined && !unknown && !LITERAL_KINDS.has(node.kind)) return undefined;
  const located = error.source === undefined ? undefined : inputsOf(schema, error.source).byPosition.get(positionOf(node));
  if (unknown) return { problem: 'unknown', path: located?.path, expected: undefined };
  if (missingField !== undefined) {
    return { problem: 'missing', path: located?.path && [...located.path, missingField], expected: typeAt(located?.type, [missingField]) };
  }
  return { problem: 'invalid', path: located?.path, expected: located?.type };
}

export interface Located {
  readonly path: readonly Segment[];
  readonly type: GraphQLType | undefined;
}

interface DocumentInputs {
  readonly document: DocumentNode;
  readonly byPosition: ReadonlyMap<string, Located>;
  /** Per operation or fragment, the first use of each variable inside an argument. */
  readonly variableUses: ReadonlyMap<DefinitionNode, ReadonlyMap<string, Located>>;
}

function positionOf(node: ASTNode): string {
  return `${node.kind}@${node.loc?.start}`;
}

/** graphql-js reports up to 100 refusals: parsed per refusal, a 1 MiB document would cost one request a hundred parses. */
const inputsBySource = new WeakMap<Source, DocumentInputs>();

function inputsOf(schema: GraphQLSchema, source: Source): DocumentInputs {
  let inputs = inputsBySource.get(source);
  if (inputs === undefined) {
    inputs = placeInputs(schema, parseClientDocument(source));
    inputsBySource.set(source, inputs);
  }
  return inputs;
}

function placeInputs(schema: GraphQLSchema, document: DocumentNode): DocumentInputs {
  const typeInfo = new TypeInfo(schema);
  const byPosition = new Map<string, Located>();
  const variableUses = new Map<DefinitionNode, Map<string, Located>>();
  let uses = new Map<string, Located>();
  const path: Segment[] = [];
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      enter(node, key, _parent, _path, ancestors) {
        if (node.kind === Kind.OPERATION_DEFINITION || node.kind === Kind.FRAGMENT_DEFINITION) variableUses.set(node, (uses = new Map<string, Located>()));
        const segment = segmentOf(node, key, ancestors);
        if (segment !== undefined) path.push(segment);
        if (path.length === 0 || node.kind === Kind.NAME) return;
        const located = { path: [...path], type: typeInfo.getInputType() ?? undefined };
        byPosition.set(positionOf(node), located);
        if (node.kind === Kind.VARIABLE && !uses.has(node.name.value)) uses.set(node.name.value, located);
      },
      leave(node, key, _parent, _path, ancestors) {
        if (segmentOf(node, key, ancestors) !== undefined) path.pop();
      },
    }),
  );
  return { document, byPosition, variableUses };
}

function segmentOf(node: ASTNode, key: string | number | undefined, ancestors: readonly (ASTNode | readonly ASTNode[])[]): Segment | undefined {
  if (node.kind === Kind.ARGUMENT || node.kind === Kind.OBJECT_FIELD) return node.name.value;
  // graphql-js's `ancestors` stop short of the parent (the list's `values` array): the last one is the list.
  const owner = ancestors.at(-1);
  const inList = owner !== undefined && 'kind' in owner && owner.kind === Kind.LIST;
  return inList && typeof key === 'number' ? key : undefined;
}

/** The body is the `input` argument, which a REST client never names. */
function fieldName(path: readonly Segment[]): string {
  const inside = path[0] === 'input' && path.length > 1 ? path.slice(1) : path;
  return inside.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join('');
}

/** A REST client never sees a GraphQL type name. */
const SCALAR_WORDS: Readonly<Record<string, readonly [string, string]>> = {
  String: ['a string', 'strings'],
  ID: ['a string', 'strings'],
  Int: ['an integer', 'integers'],
  Float: ['a number', 'numbers'],
  Boolean: ['true or false', 'booleans'],
  UUID: ['a UUIDv7 (Gatehouse ids are UUIDv7)', 'UUIDv7s'],
  DateTime: ['an RFC 3339 date-time of the years 0001 to 9999 (UTC)', 'RFC 3339 date-times'],
  JSONObject: ['an object', 'objects'],
};

/** The same on both transports. Whether null is taken is left out: a query parameter cannot carry it. */
function describe(type: GraphQLType): string {
  return valueWords(type)[0];
}

function valueWords(type: GraphQLType): readonly [string, string] {
  if (isNonNullType(type)) return valueWords(type.ofType);
  if (isListType(type)) return [`an array of ${valueWords(type.ofType)[1]}`, 'arrays'];
  if (isEnumType(type)) {
    const values = type.getValues().map((value) => value.name).join(' | ');
    return [`one of ${values}`, `values of ${values}`];
  }
  if (isInputObjectType(type)) return ['an object', 'objects'];
  return SCALAR_WORDS[type.name] ?? ['a value', 'values'];
}

const LEAD: Readonly<Record<Problem, string>> = { invalid: 'Invalid', missing: 'Missing', unknown: 'Unknown field' };

export function invalidInput(path: readonly Segment[], expected: GraphQLType): InputRefusal {
  return word({ problem: 'invalid', path, expected });
}

function word(refusal: Refusal): InputRefusal {
  const { problem, path, expected } = refusal;
  if (problem === 'unknown' && path !== undefined && path.length > 0) return unknownKey(path);
  const field = path === undefined ? undefined : fieldName(path);
  const subject = `${LEAD[problem]} ${field ?? 'value'}`;
  const message = expected === undefined ? subject : `${subject}: expected ${describe(expected)}`;
  return field === undefined ? { message } : { message, field };
}

/** Quoted as JSON, so an empty key or one holding quotes reads unambiguously; `field` is its object's when it is not a name. */
function unknownKey(path: readonly Segment[]): InputRefusal {
  const key = String(path.at(-1));
  const holder = path.slice(0, -1);
  const where = holder.length === 0 || (holder.length === 1 && holder[0] === 'input') ? '' : ` in ${fieldName(holder)}`;
  const field = fieldName(isName(key) ? path : holder);
  return { message: `${LEAD.unknown} ${JSON.stringify(key)}${where}`, field };
}
