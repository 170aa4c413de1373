import { coerceInputValue, GraphQLError, isInputType, isNonNullType, typeFromAST, type GraphQLSchema, type VariableDefinitionNode } from 'graphql';
import { GatehouseError, type ErrorDetail } from '../errors.ts';
import { arrayAsObjectAt } from './array-as-object.ts';
import { argumentOf, coercionRefusal, variableRefusal, type InputRefusal, type Located } from './input-refusals.ts';

export const INPUT_REFUSALS_MAX = 20;

export const MORE_REFUSALS = 'Too many invalid values: the refusals above are the first ones, the rest were not checked';

/** Throwing from coerceInputValue's error callback is the only way to stop it. */
const ENOUGH = Symbol('enough refusals');

/**
 * graphql-js's getVariableValues quotes the whole value per refusal (n unknown keys cost n²) and never stops: here the
 * check is linear in the variables, and at most INPUT_REFUSALS_MAX refusals go in `details`.
 */
export function variablesRefusal(schema: GraphQLSchema, definitions: readonly VariableDefinitionNode[], variables: Readonly<Record<string, unknown>>): GraphQLError | undefined {
  const refusals: { refusal: InputRefusal; definition: VariableDefinitionNode }[] = [];
  let complete = true;
  const refuse = (definition: VariableDefinitionNode, refusal: InputRefusal): void => {
    if (refusals.length === INPUT_REFUSALS_MAX) {
      complete = false;
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- a sentinel caught below, never an error
      throw ENOUGH;
    }
    refusals.push({ refusal, definition });
  };
  try {
    for (const definition of definitions) {
      const type = typeFromAST(schema, definition.type);
      // Validation refuses a variable of an unknown or output type before any value is read.
      if (type === undefined || !isInputType(type)) continue;
      let argument: Located | undefined;
      const where = (): Located => (argument ??= argumentOf(schema, definition));
      const name = definition.variable.name.value;
      if (!Object.hasOwn(variables, name)) {
        if (definition.defaultValue === undefined && isNonNullType(type)) refuse(definition, variableRefusal(where(), 'missing'));
        continue;
      }
      const value = variables[name];
      if (value === null) {
        if (isNonNullType(type)) refuse(definition, variableRefusal(where(), 'invalid'));
        continue;
      }
      const misplaced = arrayAsObjectAt(type, value);
      if (misplaced !== undefined) {
        refuse(definition, coercionRefusal(where(), misplaced, 'an array where an object is expected'));
        continue;
      }
      // Suggestions hidden: a refusal never names them, and each costs the key's length times every field's.
      coerceInputValue(value, type, (path, _value, error) => refuse(definition, coercionRefusal(where(), path, error.message)), true);
    }
  } catch (error) {
    if (error !== ENOUGH) throw error;
  }
  const [first] = refusals;
  if (first === undefined) return undefined;
  const details: ErrorDetail[] | undefined =
    refusals.length === 1 ? undefined : [...refusals.map(({ refusal }) => ({ ...refusal })), ...(complete ? [] : [{ message: MORE_REFUSALS }])];
  const refused = new GatehouseError('validation_error', first.refusal.message, { field: first.refusal.field, details });
  return new GraphQLError(refused.message, { nodes: first.definition, originalError: refused });
}
