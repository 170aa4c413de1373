import { defineEntity, p } from '@mikro-orm/core';

export type SigningKeyStatus = 'active' | 'retired' | 'revoked';

/**
 * The algorithms the service signs with, one active key each: ES256 signs access tokens, and ID tokens by default;
 * RS256 signs the ID tokens of clients that ask for it (OIDC Core 15.1: every OP must support it).
 */
export const SIGNING_ALGS = ['ES256', 'RS256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/**
 * The service's own JWT signing keys (service-wide, not application-owned). The one `active` key of each `alg` signs
 * from `signsFrom` (null: from its creation; a rotation publishes its key a while before it signs); a `retired` key
 * signed until `retiredAt` (which may be a moment ahead: its successor's `signsFrom`) and keeps verifying until the
 * longest token lifetime and a margin (src/auth/signing-keys.ts) have passed. A `revoked` key (a leak) neither signs nor
 * verifies, and is not published.
 */
const SigningKeySchema = defineEntity({
  name: 'SigningKey',
  tableName: 'signing_key',
  properties: {
    id: p.uuid().primary(),
    kid: p.string(),
    alg: p.string().$type<SigningAlg>(),
    publicJwk: p.json<Record<string, unknown>>(),
    privateJwk: p.json<Record<string, unknown>>().hidden(),
    status: p.string().$type<SigningKeyStatus>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    retiredAt: p.datetime().nullable(),
    signsFrom: p.datetime().nullable(),
  },
});

export class SigningKey extends SigningKeySchema.class {}
SigningKeySchema.setClass(SigningKey);
