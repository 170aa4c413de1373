import { getNullableType, isInputObjectType, isListType, type GraphQLInputType } from 'graphql';
import { holdsLists, invalidInput, type InputRefusal } from '../graphql/input-refusals.ts';

type Segment = string | number;

/**
 * GraphQL coercion would take a single value as a list of one; the REST schema says `array`, so REST refuses it. Other
 * kinds are left to GraphQL's coercion.
 */
export function listShapeRefusal(type: GraphQLInputType, value: unknown, path: readonly Segment[]): InputRefusal | undefined {
  return holdsLists(type) ? refusalIn(type, value, [...path]) : undefined;
}

/** A list of leaves is not walked. */
function mayHoldLists(type: GraphQLInputType): boolean {
  const nullable = getNullableType(type);
  return isListType(nullable) || isInputObjectType(nullable);
}

/** `path` is grown and shrunk in place, copied only into a refusal: the walk allocates nothing per value. */
function refusalIn(type: GraphQLInputType, value: unknown, path: Segment[]): InputRefusal | undefined {
  if (value === null || value === undefined) return undefined;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    if (!Array.isArray(value)) return invalidInput([...path], type);
    if (!mayHoldLists(nullable.ofType)) return undefined;
    return firstRefusal(value.length, (index) => [index, nullable.ofType, value[index]], path);
  }
  if (!isInputObjectType(nullable) || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const fields = nullable.getFields();
  const record = value as Record<string, unknown>;
  const names = Object.keys(record);
  // Coercion refuses a key the type does not define.
  return firstRefusal(names.length, (index) => [names[index]!, fields[names[index]!]?.type, record[names[index]!]], path);
}

function firstRefusal(
  count: number,
  member: (index: number) => [Segment, GraphQLInputType | undefined, unknown],
  path: Segment[],
): InputRefusal | undefined {
  for (let index = 0; index < count; index++) {
    const [segment, type, value] = member(index);
    if (type === undefined || !mayHoldLists(type)) continue;
    path.push(segment);
    const refusal = refusalIn(type, value, path);
    path.pop();
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}
