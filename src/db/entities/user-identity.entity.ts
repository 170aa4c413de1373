import { defineEntity, p } from '@mikro-orm/core';
import { applicationFilter } from '../owned.ts';

/** A user's `subject` at an upstream (`oauth`) provider, in the user's pool; written by upstream/accounts.ts. */
const UserIdentitySchema = defineEntity({
  name: 'UserIdentity',
  tableName: 'user_identity',
  filters: applicationFilter(),
  properties: {
    applicationId: p.uuid().primary(),
    id: p.uuid().primary(),
    poolId: p.uuid(),
    providerId: p.uuid(),
    subject: p.string(),
    userId: p.uuid(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class UserIdentity extends UserIdentitySchema.class {}
UserIdentitySchema.setClass(UserIdentity);
