import { createPublicKey, type KeyObject } from 'node:crypto';
import { invalid } from '../../errors.ts';

/** Stored in `oauth_client.jwks` for private_key_jwt. */
export type PublicJwks = {
  keys: Record<string, unknown>[];
};

export const MAX_JWKS_KEYS = 10;
const KEY_TYPES = new Set(['EC', 'RSA', 'OKP']);
/** RFC 7517/7518: the members that hold private (or symmetric) key material. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;
/** RFC 7518, RFC 8037, RFC 9864's `Ed25519`: only what the OP verifies (through jose). A key outside this table, or naming
 *  an `alg` its key cannot sign, would be stored and never authenticate. */
const ALGORITHMS_BY_KEY = {
  RSA: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'],
  'EC P-256': ['ES256'],
  'EC P-384': ['ES384'],
  'EC P-521': ['ES512'],
  'OKP Ed25519': ['Ed25519', 'EdDSA'],
} as const;
export type ClientAssertionAlgorithm = (typeof ALGORITHMS_BY_KEY)[keyof typeof ALGORITHMS_BY_KEY][number];
export const CLIENT_ASSERTION_ALGORITHMS: readonly ClientAssertionAlgorithm[] = [...new Set(Object.values(ALGORITHMS_BY_KEY).flat())];
const algorithmsOf = (key: string): readonly string[] | undefined => (ALGORITHMS_BY_KEY as Readonly<Record<string, readonly string[]>>)[key];
const MIN_RSA_BITS = 2048;
/** OpenSSL's OPENSSL_RSA_MAX_MODULUS_BITS: it verifies with no larger key, so such a key would never authenticate. */
const MAX_RSA_BITS = 16384;
/** OpenSSL's OPENSSL_RSA_SMALL_MODULUS_BITS and OPENSSL_RSA_MAX_PUBEXP_BITS: above that modulus it verifies with no
 *  exponent longer than that, so such a key would never authenticate (node:crypto imports it all the same). */
const LARGE_RSA_BITS = 3072;
const MAX_LARGE_RSA_EXPONENT = 1n << 64n;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** RFC 7517 4's that verification reads, and the public parameters (RFC 7518 6.2.1, 6.3.1, RFC 8037 2). `key_ops` and
 *  `ext` are read by the verifier too (oidc-provider and jose pass over a key whose `key_ops` lacks `verify`, jose
 *  refuses a non-boolean `ext`), so they are checked and kept as given; WebCrypto's exportKey writes both. */
const KEPT_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  EC: ['kty', 'kid', 'use', 'key_ops', 'ext', 'alg', 'crv', 'x', 'y'],
  RSA: ['kty', 'kid', 'use', 'key_ops', 'ext', 'alg', 'n', 'e'],
  OKP: ['kty', 'kid', 'use', 'key_ops', 'ext', 'alg', 'crv', 'x'],
};
/** Certificates (`x5c`, `x5u`, `x5t`, `x5t#S256`) and extensions: nothing here checks them against the key, and a verifier
 *  may honour a certificate over the key's own parameters, so they are refused rather than stored unchecked or dropped. */
const refusedMember = (field: string, member: string) =>
  UNPRINTABLE.test(member)
    ? invalid(field, 'A member name of the key holds a control or invisible character')
    : invalid(`${field}.${member}`, `${member} is not applied to the keys of client assertions: remove it (a key keeps kty, kid, use, key_ops, ext, alg and its public parameters)`);
const ENCODED_MEMBERS: ReadonlySet<string> = new Set(['x', 'y', 'n', 'e']);
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** NUL among them, which PostgreSQL cannot store. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}]/u;

/** Only what OpenSSL verifies with, and no key whose signatures anyone can compute. */
function checkRsaKey(field: string, key: KeyObject): void {
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS || bits > MAX_RSA_BITS) throw invalid(field, `An RSA key must have ${MIN_RSA_BITS} to ${MAX_RSA_BITS} bits`);
  // RFC 8017 3.1: e is odd and at least 3. With e = 1 the "signature" of a message is its own padded hash, which
  // anyone who reads the JWKS can compute: such a key authenticates everybody. An even e has no private key.
  const exponent = key.asymmetricKeyDetails?.publicExponent ?? 0n;
  if (exponent < 3n || exponent % 2n === 0n) {
    throw invalid(`${field}.e`, 'e of an RSA key must be an odd number of at least 3 (usually 65537, AQAB)');
  }
  if (bits > LARGE_RSA_BITS && exponent >= MAX_LARGE_RSA_EXPONENT) {
    throw invalid(`${field}.e`, `e of an RSA key of more than ${LARGE_RSA_BITS} bits must be at most 64 bits long (usually 65537, AQAB)`);
  }
}

/** Only what verifying an assertion reads, as given; any other member is refused. */
function publicKey(field: string, jwk: Record<string, unknown>): Record<string, unknown> {
  const kty = jwk['kty'];
  if (typeof kty !== 'string' || !KEY_TYPES.has(kty)) throw invalid(`${field}.kty`, 'kty must be EC, RSA or OKP');
  const kid = jwk['kid'];
  if (typeof kid !== 'string' || kid.length === 0 || kid.length > 200) throw invalid(`${field}.kid`, 'Every key needs a kid (1 to 200 characters)');
  if (UNPRINTABLE.test(kid)) throw invalid(`${field}.kid`, 'kid must not contain control or invisible characters');
  // A private key uploaded here would be a leaked key: refuse it rather than strip it.
  const secret = PRIVATE_MEMBERS.find((member) => member in jwk);
  if (secret !== undefined) throw invalid(`${field}.${secret}`, 'Upload public keys only: the JWKS holds private key material');
  const use = jwk['use'];
  if (use !== undefined && use !== 'sig') throw invalid(`${field}.use`, 'use must be sig: the keys verify client assertions');
  const keyOps = jwk['key_ops'];
  if (keyOps !== undefined && !(Array.isArray(keyOps) && keyOps.length === 1 && keyOps[0] === 'verify')) {
    throw invalid(`${field}.key_ops`, 'key_ops must be ["verify"]: the keys verify client assertions, and a key without verify would never authenticate');
  }
  const ext = jwk['ext'];
  if (ext !== undefined && typeof ext !== 'boolean') throw invalid(`${field}.ext`, 'ext must be true or false');
  const crv = jwk['crv'];
  // Only a string names a curve (String() of an object may throw).
  const algorithms = kty === 'RSA' ? algorithmsOf(kty) : typeof crv === 'string' ? algorithmsOf(`${kty} ${crv}`) : undefined;
  if (algorithms === undefined) {
    throw invalid(`${field}.crv`, kty === 'EC' ? 'An EC key must be on P-256, P-384 or P-521' : 'An OKP key must be Ed25519');
  }
  const alg = jwk['alg'];
  if (alg !== undefined && (typeof alg !== 'string' || !algorithms.includes(alg))) {
    throw invalid(`${field}.alg`, `alg of this ${kty} key must be one of ${algorithms.join(', ')}`);
  }
  const kept = KEPT_MEMBERS[kty] ?? [];
  const unknown = Object.keys(jwk).find((member) => !kept.includes(member));
  if (unknown !== undefined) throw refusedMember(field, unknown);
  // Node decodes base64url leniently (it skips a NUL, or anything else, inside `x`): the text is checked first.
  for (const member of kept.filter((name) => ENCODED_MEMBERS.has(name))) {
    const value = jwk[member];
    if (typeof value !== 'string' || !BASE64URL.test(value)) {
      throw invalid(`${field}.${member}`, `${member} of this ${kty} key must be base64url without padding`);
    }
  }
  let key;
  try {
    key = createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    throw invalid(field, `The ${kty} key is not a valid public JWK`);
  }
  if (kty === 'RSA') checkRsaKey(field, key);
  return Object.fromEntries(kept.filter((member) => jwk[member] !== undefined).map((member) => [member, jwk[member]]));
}

/** For the OP: a key stored before a check existed (RSA e = 1, whose signatures anyone can compute) never authenticates. */
export function usableKeys(jwks: PublicJwks): PublicJwks {
  return {
    keys: jwks.keys.filter((jwk) => {
      try {
        publicKey('keys', jwk);
        return true;
      } catch {
        return false;
      }
    }),
  };
}

/** 1 to 10 public signing keys with distinct `kid`s, each of type, kid, `use`, `key_ops`, `ext`, `alg` and public parameters.
 *  `field` prefixes the error's field (empty for the JWKS body). */
export function publicJwks(field: string, value: unknown): PublicJwks {
  const at = (suffix: string) => (field === '' ? suffix : `${field}.${suffix}`);
  if (!isObject(value)) throw invalid(field === '' ? 'keys' : field, 'A JWKS is an object {"keys": [...]}');
  const extra = Object.keys(value).find((member) => member !== 'keys');
  if (extra !== undefined) throw invalid(at(extra), `Unknown JWKS member ${extra}`);
  const keys = value['keys'];
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > MAX_JWKS_KEYS) {
    throw invalid(at('keys'), `keys must be a list of 1 to ${MAX_JWKS_KEYS} public keys`);
  }
  const kids = new Set<string>();
  const kept = keys.map((jwk: unknown, index) => {
    const keyField = at(`keys[${index}]`);
    if (!isObject(jwk)) throw invalid(keyField, 'Each key is a JWK object');
    const key = publicKey(keyField, jwk);
    const kid = key['kid'] as string;
    if (kids.has(kid)) throw invalid(`${keyField}.kid`, `Duplicate kid ${JSON.stringify(kid)}`);
    kids.add(kid);
    return key;
  });
  return { keys: kept };
}
