import { SignJWT, createLocalJWKSet, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { createPrivateKey, randomUUID } from 'node:crypto';
import { SIGNING_ALGS, type SigningAlg } from '../db/entities/signing-key.entity.ts';

/** The only module that imports `jose`. */
export const ACCESS_TOKEN_ALG: SigningAlg = 'ES256';
export const ACCESS_TOKEN_TYPE = 'at+jwt';
/** 2048 bits, as the large OPs use and NIST accepts to 2030; 3072 signs 2.5x slower (1.6 ms here). */
const RSA_MODULUS_BITS = 2048;

export interface GeneratedKey {
  kid: string;
  alg: SigningAlg;
  publicJwk: JWK;
  privateJwk: JWK;
}

export async function generateSigningKey(alg: SigningAlg = ACCESS_TOKEN_ALG): Promise<GeneratedKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true, modulusLength: RSA_MODULUS_BITS });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
  return { kid, alg, publicJwk, privateJwk };
}

export interface SignOptions {
  issuer: string;
  audience: string;
  subject: string;
  expiresInSeconds: number;
  type?: string;
}

export async function signJwt(privateJwk: JWK, claims: JWTPayload, options: SignOptions): Promise<string> {
  const key = await importJWK(privateJwk, privateJwk.alg);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: privateJwk.alg ?? ACCESS_TOKEN_ALG, kid: privateJwk.kid, typ: options.type ?? ACCESS_TOKEN_TYPE })
    .setIssuer(options.issuer)
    .setAudience(options.audience)
    .setSubject(options.subject)
    .setIssuedAt()
    .setJti(randomUUID())
    .setExpirationTime(`${options.expiresInSeconds}s`)
    .sign(key);
}

export interface VerifyOptions {
  /** undefined: any `iss`, which the caller must then check itself. */
  issuer: string | undefined;
  /** undefined: any (introspection, which answers for every resource's tokens). */
  audience: string | undefined;
}

/** ES256 only: no `none`, no HMAC confusion. Throws on any failure. */
export async function verifyAccessToken(token: string, publicJwks: JWK[], options: VerifyOptions): Promise<JWTPayload> {
  const keys = createLocalJWKSet({ keys: publicJwks });
  const { payload } = await jwtVerify(token, keys, {
    algorithms: [ACCESS_TOKEN_ALG],
    typ: ACCESS_TOKEN_TYPE,
    ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
    ...(options.audience === undefined ? {} : { audience: options.audience }),
    requiredClaims: ['iss', 'sub', 'exp', 'iat'],
  });
  return payload;
}

/** Unverified: only to choose a session cookie (session-application.ts), after which the OP verifies the token. */
export function unverifiedAudience(token: string): string | undefined {
  try {
    const { aud } = decodeJwt(token);
    return typeof aud === 'string' ? aud : undefined;
  } catch {
    return undefined;
  }
}

/** Unverified: when a token verified already runs out (epoch ms), Infinity without `exp`. */
export function unverifiedExpiry(token: string): number {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp * 1000 : Infinity;
  } catch {
    return Infinity;
  }
}

/** Unverified: which of the service's algorithms a token says it is signed with, if one (the verifier checks it). */
export function unverifiedSigningAlg(token: string): SigningAlg | undefined {
  try {
    const { alg } = decodeProtectedHeader(token);
    return SIGNING_ALGS.find((signing) => signing === alg);
  } catch {
    return undefined;
  }
}

/** Sign in with Apple, "Creating a client secret". */
export interface AppleClientSecret {
  /** `iss` */
  readonly teamId: string;
  /** `sub` */
  readonly clientId: string;
  /** `kid` */
  readonly keyId: string;
  readonly privateKey: string;
}

/** Apple accepts up to six months. */
export async function signAppleClientSecret(secret: AppleClientSecret, seconds: number): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: secret.keyId })
    .setIssuer(secret.teamId)
    .setSubject(secret.clientId)
    .setAudience('https://appleid.apple.com')
    .setIssuedAt()
    .setExpirationTime(`${seconds}s`)
    .sign(createPrivateKey(secret.privateKey));
}
