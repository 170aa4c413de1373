import { errors, type Configuration } from 'oidc-provider';

/** RFC 7523 3 lets the server bound `exp` (an hour, as Okta): a replay marker is kept as long as the assertion lives. */
export const MAX_CLIENT_ASSERTION_SECONDS = 3600;

/** The OP's clock tolerance (its default, set explicitly so that the check of `iat` below uses the same). */
export const CLOCK_TOLERANCE_SECONDS = 15;

/** Signature, iss, aud, nbf and exp are already checked; `iat` only when there is no `exp`, so here too: an assertion
 *  issued in the future was minted ahead of time or by a wrong clock (RFC 7519 4.1.6, as Keycloak refuses it). */
export const assertClientAssertion: NonNullable<Configuration['assertJwtClientAuthClaimsAndHeader']> = (_ctx, claims) => {
  const now = Math.floor(Date.now() / 1000);
  const exp = claims['exp'];
  if (typeof exp !== 'number' || exp - now > MAX_CLIENT_ASSERTION_SECONDS) {
    throw new errors.InvalidClientAuth(`the client assertion must expire within ${MAX_CLIENT_ASSERTION_SECONDS} seconds`);
  }
  const iat = claims['iat'];
  if (iat !== undefined && (typeof iat !== 'number' || iat > now + CLOCK_TOLERANCE_SECONDS)) {
    throw new errors.InvalidClientAuth('the client assertion is issued in the future (iat)');
  }
};
