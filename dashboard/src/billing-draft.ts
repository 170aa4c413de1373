import type { OrganizationBilling, OrganizationPlan } from './operations-organization.ts';

/** The billing form's fields as typed. */
export interface BillingDraft {
  readonly plan: OrganizationPlan;
  readonly billingEmail: string;
  readonly line1: string;
  readonly line2: string;
  readonly city: string;
  readonly postalCode: string;
  readonly region: string;
  readonly country: string;
  readonly taxId: string;
}

export function billingDraftOf({ plan, billingEmail, address, taxId }: OrganizationBilling): BillingDraft {
  return {
    plan,
    billingEmail: billingEmail ?? '',
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    city: address?.city ?? '',
    postalCode: address?.postalCode ?? '',
    region: address?.region ?? '',
    country: address?.country ?? '',
    taxId: taxId ?? '',
  };
}

const noneIfBlank = (value: string): string | null => (value.trim() === '' ? null : value);

/**
 * The whole billing to send: a blank field is none, and the address is none when every field of it is blank (with any
 * typed, the server requires line 1, city and country). The server judges the values.
 */
export function billingOf(draft: BillingDraft): OrganizationBilling {
  const { line1, line2, city, postalCode, region, country } = draft;
  const hasAddress = [line1, line2, city, postalCode, region, country].some((value) => noneIfBlank(value) !== null);
  return {
    plan: draft.plan,
    billingEmail: noneIfBlank(draft.billingEmail),
    address: hasAddress ? { line1, line2: noneIfBlank(line2), city, postalCode: noneIfBlank(postalCode), region: noneIfBlank(region), country } : null,
    taxId: noneIfBlank(draft.taxId),
  };
}
