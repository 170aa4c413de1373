import { describe, expect, it } from 'vitest';
import { fieldOf } from '../../src/graphql/format-error.ts';

describe('fieldOf: the input a GraphQL coercion error is about', () => {
  it.each([
    ['Variable "$appId" got invalid value "x"; Value is not a valid UUID: x', 'appId'],
    ['Variable "$input" got invalid value "nope" at "input.tenancyConfig.brandingScope"; Value "nope" does not exist in "CustomizationScope" enum.', 'tenancyConfig.brandingScope'],
    ['Variable "$input" got invalid value { colour: "red" }; Field "colour" is not defined by type "UpdateApplicationInput".', 'colour'],
    ['Variable "$input" got invalid value {}; Field "name" of required type "String!" was not provided.', 'name'],
    ['Variable "$input" got invalid value { a: 1 } at "input.colors"; Field "x" is not defined by type "Colors".', 'colors.x'],
    ['Variable "$pageSize" got invalid value "abc"; Int cannot represent non-integer value: "abc"', 'pageSize'],
  ])('%s → %s', (message, field) => {
    expect(fieldOf(message)).toBe(field);
  });

  it('has no field for errors that are not about a variable', () => {
    expect(fieldOf('Cannot query field "nope" on type "Query".')).toBeUndefined();
  });
});
