import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { DeliveryError } from './transport.ts';

/**
 * Any address not on the public internet (loopback, private, link-local with cloud metadata, …, IPv4-mapped too): an
 * administrator could otherwise make the service connect into the operator's network. EMAIL_ALLOW_PRIVATE_HOSTS=true
 * lifts it.
 */
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

export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return INTERNAL.check(address, 'ipv4');
  if (family !== 6) return false;
  // ::ffff:a.b.c.d reaches the IPv4 address a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  return mapped !== undefined ? INTERNAL.check(mapped, 'ipv4') : INTERNAL.check(address, 'ipv6');
}

/** RFC 6761: it names this machine whatever DNS says. */
export function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** One address, so what the guard checked is what is reached. */
export type HostResolver = (host: string) => Promise<string>;

/**
 * Resolved at send time: a name that was public when saved may point inside since. An internal address fails the mail
 * at once; a name that does not resolve now is retried.
 */
export const publicAddressOf: HostResolver = async (host) => {
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch (error) {
      throw new DeliveryError(`smtp: cannot resolve ${host} (${(error as { code?: string }).code ?? 'error'})`, false);
    }
  }
  const internal = addresses.find(isInternalAddress);
  if (internal !== undefined || isLocalName(host)) {
    throw new DeliveryError(
      `smtp: ${host} resolves to ${internal ?? 'this machine'}, an internal address; the service does not connect there (EMAIL_ALLOW_PRIVATE_HOSTS)`,
      true,
    );
  }
  return addresses[0]!;
};
