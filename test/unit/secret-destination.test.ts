import { describe, expect, it } from 'vitest';
import { secretDestination } from '../../src/domain/auth-providers/secret-destination.ts';

/** Where a stored OAuth client secret would be posted, as the service and the dashboard's form both judge it. */
describe('secretDestination', () => {
  it('names a generic provider’s issuer or token endpoint as the service stores it: typed without the trailing slash, the same place', () => {
    expect(secretDestination({ provider: 'generic', issuer: 'https://idp.example' })).toBe(secretDestination({ provider: 'generic', issuer: 'https://idp.example/' }));
    expect(secretDestination({ provider: 'generic', issuer: 'https://IDP.example' })).toBe('generic issuer https://idp.example/');
    expect(secretDestination({ provider: 'generic', issuer: null, tokenUrl: 'https://idp.example/token' })).toBe('generic token endpoint https://idp.example/token');
  });

  it('tells apart another issuer, path or token endpoint, an issuer from a token endpoint, and a preset from a generic provider', () => {
    const issuer = secretDestination({ provider: 'generic', issuer: 'https://idp.example/' });
    expect(secretDestination({ provider: 'generic', issuer: 'https://other.example/' })).not.toBe(issuer);
    expect(secretDestination({ provider: 'generic', issuer: 'https://idp.example/tenant' })).not.toBe(issuer);
    // The issuer's metadata names the token endpoint, which may be elsewhere: a token endpoint is another place.
    expect(secretDestination({ provider: 'generic', tokenUrl: 'https://idp.example/' })).not.toBe(issuer);
    expect(secretDestination({ provider: 'google' })).toBe('google');
    expect(secretDestination({ provider: 'google', issuer: 'https://idp.example/' })).toBe('google');
    // A draft's half-typed URL is compared as typed: not the stored one.
    expect(secretDestination({ provider: 'generic', issuer: 'idp.example' })).not.toBe(issuer);
  });
});
