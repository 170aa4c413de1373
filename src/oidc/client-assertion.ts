import { errors, type Configuration } from 'oidc-provider';

/** RFC 7523 3 lets the server bound `exp` (an hour, as Okta): a replay marker is kept as long as the assertion lives. */
export const MAX_CLIENT_ASSERTION_SECONDS = 3600;

/** Signature, iss, aud and exp are already checked. */
export const assertClientAssertion: NonNullable<Configuration['assertJwtClientAuthClaimsAndHeader']> = (_ctx, claims) => {
  const exp = claims['exp'];
  if (typeof exp !== 'number' || exp - Math.floor(Date.now() / 1000) > MAX_CLIENT_ASSERTION_SECONDS) {
    throw new errors.InvalidClientAuth(`the client assertion must expire within ${MAX_CLIENT_ASSERTION_SECONDS} seconds`);
  }
};
