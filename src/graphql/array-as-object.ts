import { getNullableType, isInputObjectType, isListType, type GraphQLInputType } from 'graphql';

type Segment = string | number;

const typesHoldingObjects = new WeakMap<GraphQLInputType, boolean>();

export function holdsInputObjects(type: GraphQLInputType): boolean {
  let holds = typesHoldingObjects.get(type);
  if (holds === undefined) {
    const nullable = getNullableType(type);
    holds = isInputObjectType(nullable) || (isListType(nullable) && holdsInputObjects(nullable.ofType));
    typesHoldingObjects.set(type, holds);
  }
  return holds;
}

/**
 * graphql-js and graphql-jit coerce a JSON array where an input object is expected as an object (`[]` as `{}`): the
 * path of the first such place, or undefined. Other refusals are left to coercion.
 */
export function arrayAsObjectAt(type: GraphQLInputType, value: unknown): Segment[] | undefined {
  if (value === null || value === undefined || !holdsInputObjects(type)) return undefined;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    // A single value is coerced as a list of one.
    if (!Array.isArray(value)) return arrayAsObjectAt(nullable.ofType, value);
    for (let index = 0; index < value.length; index++) {
      const inside = arrayAsObjectAt(nullable.ofType, value[index]);
      if (inside !== undefined) return [index, ...inside];
    }
    return undefined;
  }
  if (!isInputObjectType(nullable) || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) return [];
  const fields = nullable.getFields();
  for (const [name, member] of Object.entries(value)) {
    const fieldType = Object.hasOwn(fields, name) ? fields[name]!.type : undefined;
    const inside = fieldType === undefined ? undefined : arrayAsObjectAt(fieldType, member);
    if (inside !== undefined) return [name, ...inside];
  }
  return undefined;
}
