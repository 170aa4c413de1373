import { defineEntity, p } from '@mikro-orm/core';

export type SigningKeyStatus = 'active' | 'retired' | 'revoked';

/**
 * The algorithms the service signs with, one active key each: ES256 signs access tokens, and ID tokens by default;
 * RS256 signs the ID tokens of clients that ask for it (OIDC Core 15.1: every OP must support it).
 */
export const SIGNING_ALGS = ['ES256', 'RS256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/**
 * The service's own JWT signing keys (service-wide). The `active` key of each `alg` signs from `signsFrom` (null: from
 * its creation); a `retired` key signed until `retiredAt` (maybe ahead: its successor's `signsFrom`) and verifies until
 * the longest token lifetime and a margin have passed (src/auth/signing-keys.ts). A `revoked` key (a leak) neither
 * signs, verifies nor is published.
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
