import { domainToASCII } from 'node:url';
import { DeliveryError, mailbox } from './transport.ts';

const ASCII = /^\p{ASCII}*$/u;
/** 45 bytes are 60 base64 characters: with `=?UTF-8?B?` and `?=`, the 75 an encoded word may have (RFC 2047 §2). */
const WORD_BYTES = 45;

type Converted = { readonly address: string } | { readonly refused: string };

/** The domain in Punycode, its name in the DNS, which every provider takes; the local part as it is. */
export function asciiDomain(address: string): Converted {
  if (ASCII.test(address)) return { address };
  const at = address.lastIndexOf('@');
  const domain = domainToASCII(address.slice(at + 1));
  return domain === '' ? { refused: 'its domain is not a valid internationalized domain name' } : { address: `${address.slice(0, at)}@${domain}` };
}

/** An address for a provider that takes 7-bit ASCII only: the domain in Punycode; a local part has no ASCII form. */
export function asciiAddress(address: string): Converted {
  return ASCII.test(address.slice(0, address.lastIndexOf('@'))) ? asciiDomain(address) : { refused: 'its local part (before @) is not ASCII' };
}

/** `address` in the form `provider` takes; one that has none fails the mail at once, as it would every time. */
export function addressFor(provider: { readonly type: string; readonly name: string }, form: (address: string) => Converted, address: string): string {
  const converted = form(address);
  if ('refused' in converted) throw new DeliveryError(`${provider.type}: ${address} cannot be sent through ${provider.name}: ${converted.refused}`, true);
  return converted.address;
}

/** RFC 2047 encoded words (UTF-8, base64), each of whole characters. */
function encodedWords(text: string): string {
  const words = [''];
  for (const char of text) {
    if (Buffer.byteLength(words.at(-1)! + char) > WORD_BYTES) words.push('');
    words[words.length - 1] += char;
  }
  return words.map((word) => `=?UTF-8?B?${Buffer.from(word, 'utf8').toString('base64')}?=`).join(' ');
}

/** `address` already ASCII (asciiAddress); a name that is not ASCII is encoded, as it cannot be quoted. */
export function asciiMailbox(address: string, name: string | null): string {
  return name === null || ASCII.test(name) ? mailbox(address, name) : `${encodedWords(name)} <${address}>`;
}
