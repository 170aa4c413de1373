import { domainToASCII } from 'node:url';

/**
 * Letters toLowerCase leaves apart from another of the same Unicode case-folding class (as `/…/iu` compares): final
 * sigma, long s, micro sign, Greek symbol forms, Cyrillic historic variants. U+0345 is left: it composes.
 */
const FOLDED: Readonly<Record<string, string>> = {
  '\u017f': 's', // ſ
  '\u00b5': '\u03bc', // µ → μ
  '\u03c2': '\u03c3', // ς → σ
  '\u03d0': '\u03b2', // ϐ → β
  '\u03f5': '\u03b5', // ϵ → ε
  '\u03d1': '\u03b8', // ϑ → θ
  '\u03f0': '\u03ba', // ϰ → κ
  '\u03d6': '\u03c0', // ϖ → π
  '\u03f1': '\u03c1', // ϱ → ρ
  '\u03d5': '\u03c6', // ϕ → φ
  '\u1c80': '\u0432',
  '\u1c81': '\u0434',
  '\u1c82': '\u043e',
  '\u1c83': '\u0441',
  '\u1c84': '\u0442',
  '\u1c85': '\u0442',
  '\u1c86': '\u044a',
  '\u1c87': '\u0463',
  '\u1c88': '\ua64b',
  '\u1e9b': '\u1e61', // ẛ → ṡ
};
const FOLDABLE = new RegExp(`[${Object.keys(FOLDED).join('')}]`, 'gu');

/** normalizeEmail's key before its domain is written in ASCII. */
const folded = (address: string): string => address.trim().toLowerCase().normalize('NFC').replace(FOLDABLE, (letter) => FOLDED[letter] ?? letter);

/** The key an address is unique and found by: trimmed, lower-cased, NFC, case-folded (FOLDED), domain in IDNA ASCII. The
 *  address itself is kept as given. */
export function normalizeEmail(address: string): string {
  const lowered = folded(address);
  const at = lowered.lastIndexOf('@');
  if (at === -1) return lowered;
  const domain = lowered.slice(at + 1);
  // '' when the domain cannot be written in ASCII: it is then compared as typed (NFC, lower-case).
  return `${lowered.slice(0, at + 1)}${domainToASCII(domain) || domain}`;
}

/** Past the `@`, the domain as given is compared too (`domainStart`): an IDN's key (`xn--bcher-kva.de`) does not start
 *  as its name (`bü`) does. */
export function emailPrefixKeys(prefix: string): { key: string; domainStart?: { mailbox: string; domain: string } } {
  const key = normalizeEmail(prefix);
  const lowered = folded(prefix);
  const at = lowered.lastIndexOf('@');
  if (at === -1 || at === lowered.length - 1) return { key };
  return { key, domainStart: { mailbox: lowered.slice(0, at + 1), domain: lowered.slice(at + 1) } };
}
