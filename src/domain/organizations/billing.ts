import type { Billing, BillingAddress } from '../../db/entities/organization.entity.ts';
import { invalid } from '../../errors.ts';
import { displayName, email } from '../validate.ts';
import { isCountryCode } from './countries.ts';

/** Recorded for invoicing only: no plan changes what the service allows. */
export type Plan = Billing['plan'];

export interface BillingAddressInput {
  line1: string;
  line2?: string | null;
  city: string;
  postalCode?: string | null;
  region?: string | null;
  country: string;
}

export interface BillingInput {
  plan: Plan;
  billingEmail?: string | null;
  address?: BillingAddressInput | null;
  taxId?: string | null;
}

const DEFAULT_BILLING: Billing = { plan: 'free', billingEmail: null, address: null, taxId: null };

/** An organization made before its billing was stored as an object holds the JSON string "{}": the defaults. */
export function billingOf(stored: Partial<Billing> | undefined | null): Billing {
  return typeof stored === 'object' ? { ...DEFAULT_BILLING, ...stored } : { ...DEFAULT_BILLING };
}

/** As printed: letters, digits, spaces, dots, hyphens and slashes, 2 to 32; any case. Tested before upper-casing, which
 *  turns some other letters into these (ß → SS, ﬁ → FI): only the case may change. */
const TAX_ID = /^[A-Z0-9][A-Z0-9 ./-]{0,30}[A-Z0-9]$/i;
const COUNTRY = /^[A-Z]{2}$/i;

/** Printed on an invoice as a name is (displayName): one line, visible, nothing reordered. Blank is none. */
const optionalLine = (field: string, value: string | null | undefined) => (value == null || value.trim() === '' ? null : displayName(field, value));

function address(input: BillingAddressInput): BillingAddress {
  // Sent in any case.
  const sent = input.country.trim();
  const country = sent.toUpperCase();
  if (!COUNTRY.test(sent) || !isCountryCode(country)) throw invalid('address.country', 'address.country must be an ISO 3166-1 alpha-2 code, e.g. DE');
  return {
    line1: displayName('address.line1', input.line1),
    line2: optionalLine('address.line2', input.line2),
    city: displayName('address.city', input.city),
    postalCode: optionalLine('address.postalCode', input.postalCode),
    region: optionalLine('address.region', input.region),
    country,
  };
}

/** 422 naming the first field at fault. */
export function validBilling(input: BillingInput): Billing {
  let taxId: string | null = null;
  if (input.taxId != null) {
    const sent = input.taxId.trim();
    if (!TAX_ID.test(sent)) throw invalid('taxId', 'taxId must be 2 to 32 letters, digits, spaces, dots, hyphens or slashes');
    taxId = sent.toUpperCase();
  }
  return {
    plan: input.plan,
    billingEmail: input.billingEmail == null ? null : email('billingEmail', input.billingEmail),
    address: input.address == null ? null : address(input.address),
    taxId,
  };
}
