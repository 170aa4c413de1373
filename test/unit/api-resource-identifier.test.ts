import { describe, expect, it } from 'vitest';
import { resourceIdentifier } from '../../src/domain/api-resources/identifier.ts';

const AUDIENCE = 'https://auth.example.com/api/v1';

describe('an API resource identifier', () => {
  it.each(['https://api.example.com', 'https://api.example.com/', 'https://api.example.com:8443/v1?x=1', 'https://10.0.0.1/api'])('accepts %s as written', (value) => {
    expect(resourceIdentifier(AUDIENCE, value)).toBe(value);
  });

  it.each([AUDIENCE, `${AUDIENCE}/`, 'HTTPS://api.example.com', 'https://Api.example.com', 'https://', 'urn:example:api', 'https://a.example.com/\u00e9'])(
    'refuses %s',
    (value) => {
      expect(() => resourceIdentifier(AUDIENCE, value)).toThrow(expect.objectContaining({ code: 'validation_error', field: 'identifier' }));
    },
  );
});
