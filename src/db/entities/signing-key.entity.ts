import { defineEntity, p } from '@mikro-orm/core';

export type SigningKeyStatus = 'active' | 'retired' | 'revoked';

/** One active key each: ES256 signs access tokens and ID tokens by default; RS256 the ID tokens of clients asking for it
 *  (OIDC Core 15.1: every OP must support it). */
export const SIGNING_ALGS = ['ES256', 'RS256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/** Service-wide. The `active` key of each `alg` signs from `signsFrom` (null: creation); a `retired` one signed until
 *  `retiredAt` and verifies until the longest session it saw may have ended, and a margin (src/auth/signing-keys.ts). A `revoked`
 *  key (a leak) neither signs, verifies nor is published. */
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
