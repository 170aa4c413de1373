import { errors, type Configuration } from 'oidc-provider';

/**
 * The longest a private_key_jwt client assertion may live (RFC 7523 3 lets the server bound `exp`): an hour, as Okta
 * allows. A replayed assertion's `jti` is stored for as long as it lives, so an unbounded `exp` would be kept for ever.
 */
export const MAX_CLIENT_ASSERTION_SECONDS = 3600;

/** oidc-provider's hook for extra checks on a verified client assertion (signature, iss, aud, exp already checked). */
export const assertClientAssertion: NonNullable<Configuration['assertJwtClientAuthClaimsAndHeader']> = (_ctx, claims) => {
  const exp = claims['exp'];
  if (typeof exp !== 'number' || exp - Math.floor(Date.now() / 1000) > MAX_CLIENT_ASSERTION_SECONDS) {
    throw new errors.InvalidClientAuth(`the client assertion must expire within ${MAX_CLIENT_ASSERTION_SECONDS} seconds`);
  }
};
