import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { boundedConcurrency } from '../bounded-concurrency.ts';

/** Any address not on the public internet (loopback, private, link-local with cloud metadata, reserved, documentation,
 *  multicast): else an administrator could make the service connect into the operator's network.
 *  EMAIL_/UPSTREAM_ALLOW_PRIVATE_HOSTS open it. An IPv6 address that reaches an IPv4 one is judged by it (ipv4Reached). */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
// IANA's special-purpose IPv6 registry, as the IPv4 list above: unspecified, loopback, IPv4-compatible (deprecated),
// local-use NAT64, discard and dummy prefixes, IETF protocol assignments (Teredo among them), documentation (both),
// SRv6 segment ids, unique-local, link-local, site-local, multicast. 64:ff9b::/96 and 2002::/16 are judged by the IPv4
// address they reach.
for (const [network, prefix] of [
  ['::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['100:0:0:1::', 64], ['2001::', 23], ['2001:db8::', 32], ['3fff::', 20], ['5f00::', 16],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** The eight 16-bit groups of a valid IPv6 address (isIP), its zone left out. */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const ipv4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (ipv4 !== null) {
    const [a, b, c, d] = ipv4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, ipv4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [head = '', tail] = text.split('::');
  if (tail === undefined) return groups(head);
  const [before, after] = [groups(head), groups(tail)];
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

const dotted = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The IPv4 address an IPv6 one reaches: IPv4-mapped (::ffff:0:0/96, this host's own IPv4), or through a gateway:
 *  NAT64 (64:ff9b::/96, RFC 6052) and 6to4 (2002::/16, RFC 3056), which a network may route inside. */
function ipv4Reached(address: string): { ipv4: string; mapped: boolean } | undefined {
  const groups = ipv6Groups(address);
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return { ipv4: dotted(g6, g7), mapped: true };
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return { ipv4: dotted(g6, g7), mapped: false };
  if (g0 === 0x2002) return { ipv4: dotted(g1 ?? 0, g2 ?? 0), mapped: false };
  return undefined;
}

function inList(list: BlockList, address: string, throughGateways: boolean): boolean {
  const family = isIP(address);
  if (family === 4) return list.check(address, 'ipv4');
  if (family !== 6) return false;
  const reached = ipv4Reached(address);
  if (reached !== undefined && (reached.mapped || throughGateways)) return list.check(reached.ipv4, 'ipv4');
  return list.check(address.replace(/%.*$/, ''), 'ipv6');
}

export const isInternalAddress = (address: string): boolean => inList(INTERNAL, address, true);

/** This machine's: a gateway's IPv4 loopback is the gateway's own. */
export const isLoopbackAddress = (address: string): boolean => inList(LOOPBACK, address, false);

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
