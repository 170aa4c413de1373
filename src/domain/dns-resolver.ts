import { Resolver } from 'node:dns/promises';

const resolvers = new Map<string, Resolver>();

/**
 * The resolver of the service's DNS checks (custom domains, sender domains): `DNS_SERVERS`, or the system's when it
 * names none; bounded so that a dead server answers in seconds.
 */
export function dnsResolver(servers: readonly string[]): Resolver {
  const key = servers.join(',');
  let resolver = resolvers.get(key);
  if (resolver === undefined) {
    resolver = new Resolver({ timeout: 2_000, tries: 2 });
    if (servers.length > 0) resolver.setServers([...servers]);
    resolvers.set(key, resolver);
  }
  return resolver;
}
