import { defineEntity, p } from '@mikro-orm/core';

export type OrganizationStatus = 'active' | 'deactivated';

export interface BillingAddress {
  line1: string;
  line2: string | null;
  city: string;
  postalCode: string | null;
  region: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
}

/** The organization's billing settings: what an invoice would carry; no payment provider reads them. */
export interface Billing {
  /** One of PLANS (src/domain/organizations/billing.ts). */
  plan: 'free' | 'starter' | 'pro' | 'enterprise';
  billingEmail: string | null;
  address: BillingAddress | null;
  taxId: string | null;
}

const OrganizationSchema = defineEntity({
  name: 'Organization',
  tableName: 'organization',
  properties: {
    id: p.uuid().primary(),
    name: p.string(),
    status: p.string().$type<OrganizationStatus>().default('active'),
    /** `{}` until first set: presented with the defaults (billing.ts). An object, not `default('{}')`, which stores the
     *  JSON string "{}". */
    billing: p.json<Partial<Billing>>().onCreate(() => ({})),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Organization extends OrganizationSchema.class {}
OrganizationSchema.setClass(Organization);
