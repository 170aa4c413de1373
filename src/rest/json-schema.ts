import {
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type FieldNode,
  type GraphQLAbstractType,
  type FragmentDefinitionNode,
  type GraphQLEnumType,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { UUIDV7_PATTERN } from '../ids.ts';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = { [keyword: string]: unknown };

/** Scalars as JSON carries them. A scalar missing here is documented by its description alone (any JSON value). */
const SCALARS: Readonly<Record<string, JsonSchema>> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  UUID: { type: 'string', format: 'uuid', pattern: UUIDV7_PATTERN },
  DateTime: { type: 'string', format: 'date-time' },
  // Free-form: any member, of any JSON type (a bare `type: object` reads as an object of no members to generators).
  JSONObject: { type: 'object', additionalProperties: true },
};

/** A scalar's schema, for a parameter no operation's argument describes (the audit stream's own). */
export const scalarSchema = (name: 'String' | 'UUID'): JsonSchema => ({ ...SCALARS[name] });

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** `schema` or JSON null: a type array where one suffices, else `anyOf` (refs, enums, unions). */
function orNull(schema: JsonSchema): JsonSchema {
  const { description, ...rest } = schema;
  const type = rest['type'];
  const widened = typeof type === 'string' && rest['enum'] === undefined ? { ...rest, type: [type, 'null'] } : { anyOf: [rest, { type: 'null' }] };
  return description === undefined ? widened : { description, ...widened };
}

function described(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description == null ? schema : { description, ...schema };
}

/**
 * Converts GraphQL types to JSON Schema for the OpenAPI document. Named enums and input objects become components
 * (collected in `components`); output objects are shaped by a selection set, since a REST response is exactly the
 * root field's selection. A selection that is a single fragment spread becomes a component named after the fragment.
 */
export class JsonSchemaConverter {
  readonly components = new Map<string, JsonSchema>();
  private readonly schema: GraphQLSchema;
  private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;

  constructor(schema: GraphQLSchema, fragments: ReadonlyMap<string, FragmentDefinitionNode>) {
    this.schema = schema;
    this.fragments = fragments;
  }

  /** A variable's or input field's type. */
  input(type: GraphQLInputType): JsonSchema {
    if (isNonNullType(type)) return this.nonNullInput(type.ofType);
    return orNull(this.nonNullInput(type));
  }

  /** A field's type, restricted to `selectionSet` for objects. */
  output(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): JsonSchema {
    if (isNonNullType(type)) return this.nonNullOutput(type.ofType, selectionSet);
    return orNull(this.nonNullOutput(type, selectionSet));
  }

  private nonNullInput(type: GraphQLInputType): JsonSchema {
    if (isNonNullType(type)) return this.nonNullInput(type.ofType);
    if (isListType(type)) return { type: 'array', items: this.input(type.ofType) };
    if (isInputObjectType(type)) return this.component(type.name, () => this.inputObject(type));
    return this.leaf(type);
  }

  private nonNullOutput(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): JsonSchema {
    if (isNonNullType(type)) return this.nonNullOutput(type.ofType, selectionSet);
    if (isListType(type)) return { type: 'array', items: this.output(type.ofType, selectionSet) };
    if (isObjectType(type) || isAbstractType(type)) {
      if (selectionSet === undefined) throw new Error(`a selection of ${type.name} has no selection set`);
      const [only] = selectionSet.selections;
      if (selectionSet.selections.length === 1 && only?.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = this.fragment(only.name.value);
        if (fragment.typeCondition.name.value === type.name) {
          return this.component(fragment.name.value, () => this.selection(type, fragment.selectionSet));
        }
      }
      return this.selection(type, selectionSet);
    }
    return this.leaf(type);
  }

  private leaf(type: GraphQLNamedType): JsonSchema {
    if (isEnumType(type)) return this.component(type.name, () => enumSchema(type));
    if (isScalarType(type)) return SCALARS[type.name] ?? described({}, type.description);
    throw new Error(`${type.name} is not a leaf type`);
  }

  private inputObject(type: GraphQLInputObjectType): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of Object.values(type.getFields())) {
      const property = withMembers(described(refusesNull(field) ? this.nonNullInput(field.type) : this.input(field.type), field.description), field);
      properties[field.name] = field.defaultValue === undefined ? property : { ...property, default: field.defaultValue };
      if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
    }
    return described({ type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false }, type.description);
  }

  /** An object (or, for an interface or union, one of its possible objects) with exactly the selected fields. */
  private selection(type: GraphQLObjectType | GraphQLAbstractType, selectionSet: SelectionSetNode): JsonSchema {
    if (isObjectType(type)) return this.selectedObject(type, selectionSet);
    return described({ oneOf: this.schema.getPossibleTypes(type).map((object) => this.selectedObject(object, selectionSet)) }, type.description);
  }

  private selectedObject(type: GraphQLObjectType, selectionSet: SelectionSetNode): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [key, { nodes, conditional }] of this.collectFields(type, selectionSet)) {
      const name = (nodes[0] as FieldNode).name.value;
      if (name === '__typename') {
        properties[key] = { type: 'string', const: type.name };
      } else {
        const field = type.getFields()[name];
        if (field === undefined) throw new Error(`${type.name} has no field ${name}`);
        // Fields selected under one response key merge their selections, as GraphQL's execution does.
        const merged: SelectionSetNode = { kind: Kind.SELECTION_SET, selections: nodes.flatMap((node) => node.selectionSet?.selections ?? []) };
        properties[key] = withMembers(described(this.output(field.type, merged.selections.length > 0 ? merged : undefined), field.description), field);
      }
      if (!conditional) required.push(key);
    }
    return described({ type: 'object', properties, required }, type.description);
  }

  /** The fields a selection set yields on `type`, by response key; `conditional` when @skip or @include may drop them. */
  private collectFields(
    type: GraphQLObjectType,
    selectionSet: SelectionSetNode,
    into = new Map<string, { nodes: FieldNode[]; conditional: boolean }>(),
    conditional = false,
  ): Map<string, { nodes: FieldNode[]; conditional: boolean }> {
    for (const selection of selectionSet.selections) {
      const maybe = conditional || (selection.directives ?? []).some((d) => d.name.value === 'skip' || d.name.value === 'include');
      if (selection.kind === Kind.FIELD) {
        const key = (selection.alias ?? selection.name).value;
        const entry = into.get(key) ?? { nodes: [], conditional: maybe };
        entry.nodes.push(selection);
        entry.conditional &&= maybe;
        into.set(key, entry);
        continue;
      }
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? this.fragment(selection.name.value) : selection;
      if (this.applies(fragment.typeCondition?.name.value, type)) this.collectFields(type, fragment.selectionSet, into, maybe);
    }
    return into;
  }

  private applies(condition: string | undefined, type: GraphQLObjectType): boolean {
    if (condition === undefined || condition === type.name) return true;
    const conditionType = this.schema.getType(condition);
    return conditionType !== undefined && isAbstractType(conditionType) && this.schema.isSubType(conditionType, type);
  }

  private fragment(name: string): FragmentDefinitionNode {
    const fragment = this.fragments.get(name);
    if (fragment === undefined) throw new Error(`unknown fragment ${name}`);
    return fragment;
  }

  private component(name: string, build: () => JsonSchema): JsonSchema {
    if (!this.components.has(name)) {
      // Reserve the name first: input types may refer to themselves.
      this.components.set(name, {});
      this.components.set(name, build());
    }
    return ref(name);
  }
}

/** The SDL's `@notNull`: the field may be left out, but null is refused (GraphQL's types cannot say so). */
function refusesNull(field: GraphQLInputField): boolean {
  return field.astNode?.directives?.some((directive) => directive.name.value === 'notNull') === true;
}

/** The JSON types `@members` names. */
const MEMBER_SCHEMAS: Readonly<Record<string, JsonSchema>> = { string: { type: 'string' }, string_or_null: { type: ['string', 'null'] } };

/** The SDL's `@members`: the JSON type of every member of a free-form object, else any (JSONObject's own schema). */
function withMembers(schema: JsonSchema, field: GraphQLField<unknown, unknown> | GraphQLInputField): JsonSchema {
  const type = field.astNode?.directives?.find((directive) => directive.name.value === 'members')?.arguments?.[0]?.value;
  const members = type?.kind === Kind.ENUM ? MEMBER_SCHEMAS[type.value] : undefined;
  return members === undefined ? schema : { ...schema, additionalProperties: members };
}

function enumSchema(type: GraphQLEnumType): JsonSchema {
  return described({ type: 'string', enum: type.getValues().map((value) => value.name) }, type.description);
}
