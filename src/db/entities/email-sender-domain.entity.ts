import { defineEntity, p } from '@mikro-orm/core';
import { tenantOwnedColumns, tenantOwnedFilters } from '../owned.ts';

/** A From domain of one provider owner, with its DKIM key (the private one sealed) and its verification (migration 0020). */
const EmailSenderDomainSchema = defineEntity({
  name: 'EmailSenderDomain',
  tableName: 'email_sender_domain',
  filters: tenantOwnedFilters({ inheritsApplicationRows: false }),
  properties: {
    ...tenantOwnedColumns(),
    domain: p.string(),
    dkimSelector: p.string(),
    dkimPublicKey: p.text(),
    dkimPrivateKey: p.text(),
    lastCheck: p.json<{ name: string; value: string; found: boolean; reason: string | null }[]>().nullable(),
    verifiedAt: p.datetime().nullable(),
    checkedAt: p.datetime().nullable(),
    /** Since when daily re-checks have found its return path missing (migration 0072). */
    failingSince: p.datetime().nullable(),
    recheckClaimedUntil: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class EmailSenderDomain extends EmailSenderDomainSchema.class {}
EmailSenderDomainSchema.setClass(EmailSenderDomain);
