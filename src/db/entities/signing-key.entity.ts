import { defineEntity, p } from '@mikro-orm/core';

export type SigningKeyStatus = 'active' | 'retired';

/**
 * The service's own JWT signing keys (service-wide, not application-owned). The newest `active` key signs;
 * `retired` keys keep verifying until `retiredAt` plus the longest token lifetime and the 30 s an instance may still
 * sign with them (src/auth/signing-keys.ts) have passed.
 */
const SigningKeySchema = defineEntity({
  name: 'SigningKey',
  tableName: 'signing_key',
  properties: {
    id: p.uuid().primary(),
    kid: p.string(),
    alg: p.string(),
    publicJwk: p.json<Record<string, unknown>>(),
    privateJwk: p.json<Record<string, unknown>>().hidden(),
    status: p.string().$type<SigningKeyStatus>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    retiredAt: p.datetime().nullable(),
  },
});

export class SigningKey extends SigningKeySchema.class {}
SigningKeySchema.setClass(SigningKey);
