import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { boundedConcurrency } from '../bounded-concurrency.ts';

/** Any address not on the public internet (loopback, private, link-local with cloud metadata, IPv4-mapped too): else an
 *  administrator could make the service connect into the operator's network. EMAIL_/UPSTREAM_ALLOW_PRIVATE_HOSTS open it. */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

function inList(list: BlockList, address: string): boolean {
  const family = isIP(address);
  if (family === 4) return list.check(address, 'ipv4');
  if (family !== 6) return false;
  // ::ffff:a.b.c.d reaches the IPv4 address a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  return mapped !== undefined ? list.check(mapped, 'ipv4') : list.check(address, 'ipv6');
}

export const isInternalAddress = (address: string): boolean => inList(INTERNAL, address);

export const isLoopbackAddress = (address: string): boolean => inList(LOOPBACK, address);

/** RFC 6761: it names this machine whatever DNS says. */
export function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

export type InternalReach = 'none' | 'loopback' | 'any';

const reaches = (address: string, reach: InternalReach): boolean =>
  reach === 'any' || !isInternalAddress(address) || (reach === 'loopback' && isLoopbackAddress(address));

/** As a resolver reads it: `127.1` and `0x7f000001` are 127.0.0.1 (WHATWG's IPv4 parser, as getaddrinfo's). */
function canonicalHost(host: string): string {
  const bare = host.replace(/^\[|\]$/g, '');
  try {
    return new URL(`http://${isIP(bare) === 6 ? `[${bare}]` : bare}/`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return bare;
  }
}

export function mayName(host: string, reach: InternalReach): boolean {
  const address = canonicalHost(host);
  if (isIP(address) !== 0) return reaches(address, reach);
  return reach !== 'none' || !isLocalName(address);
}

/** getaddrinfo runs on libuv's four threads, which Argon2, files and zlib share, and waits as long as the system's
 *  resolver does (seconds per name server): names that administrators choose (an upstream's, an SMTP server's, whose
 *  name server may never answer) may hold two of them, not all. */
const LOOKUPS_AT_ONCE = 2;
const lookups = boundedConcurrency(() => LOOKUPS_AT_ONCE);

/** Lookups waiting for one of the LOOKUPS_AT_ONCE (the metrics' gauge). */
export const dnsLookupsWaiting = (): number => lookups.waiting;

/** The one address to connect to, what the guard refused (an address, or `this machine`), or the resolver's error code. */
export type Resolution = { readonly address: string } | { readonly refused: string } | { readonly unresolved: string };

/** At connect time, as a public name may point inside since. Every address of the name is checked and the first is the
 *  one to connect to, so no second lookup (DNS rebinding) comes between check and connect. */
export async function resolveHost(host: string, reach: InternalReach): Promise<Resolution> {
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = (await lookups(() => lookup(host, { all: true, verbatim: true }))).map((entry) => entry.address);
    } catch (error) {
      return { unresolved: (error as { code?: string }).code ?? 'error' };
    }
  }
  const refused = addresses.find((address) => !reaches(address, reach)) ?? (reach === 'none' && isLocalName(host) ? 'this machine' : undefined);
  return refused === undefined ? { address: addresses[0]! } : { refused };
}
