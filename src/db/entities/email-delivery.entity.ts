import { defineEntity, p } from '@mikro-orm/core';
import { tenantOwnedColumns, tenantOwnedFilters } from '../owned.ts';

/** One mail of the outbox, rendered, with its delivery state (migration 0017). Never holds a provider's secret. */
const EmailDeliverySchema = defineEntity({
  name: 'EmailDelivery',
  tableName: 'email_delivery',
  filters: tenantOwnedFilters({ inheritsApplicationRows: false }),
  properties: {
    ...tenantOwnedColumns(),
    templateKey: p.string(),
    toAddress: p.string(),
    /** normalizeEmail(toAddress), by which mails to one mailbox are counted (migration 0071); null on mails older than it. */
    toKey: p.string().nullable(),
    subject: p.string(),
    textBody: p.text(),
    htmlBody: p.text(),
    messageId: p.string(),
    status: p.string(),
    attempts: p.integer(),
    nextAttemptAt: p.datetime(),
    claimedUntil: p.datetime().nullable(),
    lastError: p.text().nullable(),
    providerType: p.string().nullable(),
    note: p.string().nullable(),
    /** The invitation whose link it carries (migration 0076): its revoke or resend withdraws the mail while queued. */
    invitationId: p.uuid().nullable(),
    /** The account it is to (migration 0081): the user's suspension or deletion withdraws the mail while queued. */
    userId: p.uuid().nullable(),
    /** Why it was withdrawn before it was sent (outbox.ts withdrawQueuedMail); it is then `failed`, or its attempt under way fails. */
    withdrawn: p.text().nullable(),
    /** When the link or code it carries stops working (migration 0083): still queued then, it is withdrawn, not sent. */
    linkExpiresAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    sentAt: p.datetime().nullable(),
  },
});

export class EmailDelivery extends EmailDeliverySchema.class {}
EmailDeliverySchema.setClass(EmailDelivery);
