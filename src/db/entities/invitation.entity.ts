import { defineEntity, p } from '@mikro-orm/core';
import { applicationFilter, tenantFilter } from '../owned.ts';
import type { RoleSubjectType } from './role-assignment.entity.ts';

/** To one tenant, with the roles it gives there. The link's token is stored only as its SHA-256; a resend replaces it.
 *  Status is derived: accepted, revoked, expired, pending. */
const InvitationSchema = defineEntity({
  name: 'Invitation',
  tableName: 'invitation',
  filters: { ...applicationFilter(), ...tenantFilter({ kind: 'column', column: 'tenantId', inheritsApplicationRows: false }) },
  properties: {
    applicationId: p.uuid().primary(),
    id: p.uuid().primary(),
    tenantId: p.uuid(),
    email: p.string(),
    emailNormalized: p.string(),
    roleIds: p.array().columnType('uuid[]'),
    tokenHash: p.string().hidden(),
    /** How long each link (the first, and each resend's) stays valid. */
    expiresInDays: p.integer(),
    expiresAt: p.datetime(),
    acceptedAt: p.datetime().nullable(),
    acceptedUserId: p.uuid().nullable(),
    revokedAt: p.datetime().nullable(),
    /** The OAuth client whose application the done page leads to; null: none. */
    clientId: p.uuid().nullable(),
    invitedByType: p.string(),
    invitedById: p.string(),
    /** The subjects that sent or last resent it: acceptance gives only the roles these may still give in the tenant. */
    grantedBy: p.json<{ type: RoleSubjectType; id: string }[]>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Invitation extends InvitationSchema.class {}
InvitationSchema.setClass(Invitation);
