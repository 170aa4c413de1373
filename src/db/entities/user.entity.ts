import { defineEntity, p } from '@mikro-orm/core';
import { applicationFilter, tenantFilter } from '../owned.ts';

export type UserStatus = 'active' | 'suspended' | 'locked';

/** `poolId`: the pool the e-mail is unique in, the nil UUID (shared) or the tenant's id when isolated (API.md, User). A
 *  write of a user's row calls usersChanged (domain/users/changed.ts) after commit, or publishes `application`: the REST
 *  read cache keeps users' answers till then. */
const UserSchema = defineEntity({
  name: 'User',
  tableName: 'app_user',
  filters: { ...applicationFilter(), ...tenantFilter({ kind: 'member', column: 'tenantIds' }) },
  properties: {
    applicationId: p.uuid().primary(),
    id: p.uuid().primary(),
    poolId: p.uuid(),
    email: p.string(),
    emailNormalized: p.string(),
    name: p.string().nullable(),
    status: p.string().$type<UserStatus>(),
    tenantIds: p.array().columnType('uuid[]'),
    passwordHash: p.string().nullable().hidden(),
    /** When the password was last set: the password policy's `maxAge` counts from it (src/domain/users/password-history.ts). */
    passwordChangedAt: p.datetime().onCreate(() => new Date()).hidden(),
    /** Whether the owner proved the e-mail (a link): false for a self sign-up until then; an administrator's user is. */
    emailVerified: p.boolean().default(true),
    /** The tenant whose administrator set the address: in the shared pool, while it is unconfirmed, which a takeover of the
     *  account by the mailbox's owner keeps (src/domain/users/unconfirmed-takeover.ts); in an isolated pool, where it is
     *  confirmed, until the pools merge and it is not (src/domain/tenancy/isolation.ts); null: nobody vouched. */
    vouchedByTenantId: p.uuid().nullable().hidden(),
    /** Until when a `locked` user stays locked; null: until an administrator unlocks them (src/domain/sign-in/lockout.ts). */
    lockedUntil: p.datetime().nullable(),
    /** A `suspended` user's lock, still running when suspended: an activation gives it back (src/domain/users/users.ts). */
    lockedWhenSuspended: p.boolean().default(false).hidden(),
    /** Consecutive failed password sign-ins (src/domain/sign-in/lockout.ts writes it, in single statements). */
    failedSignIns: p.integer().default(0),
    /** How often the user's sign-ins were ended: a sign-in's proof made before the last time is void (src/domain/sign-in/sign-in.ts). */
    signInsEnded: p.integer().default(0).hidden(),
    /** The language the user last used on the hosted pages, which their mails are written in; null: English (src/domain/locales.ts). */
    locale: p.string().nullable(),
    metadata: p.json<Record<string, unknown>>().onCreate(() => ({})),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class User extends UserSchema.class {}
UserSchema.setClass(User);

export const SHARED_POOL = '00000000-0000-0000-0000-000000000000';
