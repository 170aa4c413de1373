import { getNullableType, isInputObjectType, isListType, type GraphQLInputType } from 'graphql';
import { invalidInput, type InputRefusal } from '../graphql/input-refusals.ts';

/**
 * A REST body is JSON, and its schema (the OpenAPI document) says `array` wherever the GraphQL input has a list.
 * GraphQL's input coercion would accept a single value there as a list of one (`"redirectUris": "https://…"`);
 * REST refuses it, as its own description says. The first value that is not a JSON array where the type has a list,
 * worded as the other input refusals are (`field` is the path in the body); undefined when the shapes agree. Values
 * of any other kind are left to GraphQL's coercion, which refuses what does not fit.
 */
export function listShapeRefusal(type: GraphQLInputType, value: unknown, path: readonly (string | number)[]): InputRefusal | undefined {
  if (value === null || value === undefined) return undefined;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    if (!Array.isArray(value)) return invalidInput(path, type);
    for (const [index, item] of value.entries()) {
      const refusal = listShapeRefusal(nullable.ofType, item, [...path, index]);
      if (refusal !== undefined) return refusal;
    }
    return undefined;
  }
  if (!isInputObjectType(nullable) || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const fields = nullable.getFields();
  for (const [name, fieldValue] of Object.entries(value)) {
    const field = fields[name];
    const refusal = field === undefined ? undefined : listShapeRefusal(field.type, fieldValue, [...path, name]);
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}
