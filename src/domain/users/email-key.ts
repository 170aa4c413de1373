import { domainToASCII } from 'node:url';

/**
 * The key an e-mail address is unique by, and found by at sign-in: trimmed, lower-cased and in Unicode NFC (an accented
 * letter typed precomposed or as a letter and a combining accent is one letter), its domain in its ASCII (IDNA) form
 * (`bücher.example` and `xn--bcher-kva.example` are one domain). The address itself is kept as given, for display.
 */
export function normalizeEmail(address: string): string {
  const lowered = address.trim().toLowerCase().normalize('NFC');
  const at = lowered.lastIndexOf('@');
  if (at === -1) return lowered;
  const domain = lowered.slice(at + 1);
  // '' when the domain cannot be written in ASCII: it is then compared as typed (NFC, lower-case).
  return `${lowered.slice(0, at + 1)}${domainToASCII(domain) || domain}`;
}
