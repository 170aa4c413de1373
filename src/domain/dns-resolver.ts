import { Resolver } from 'node:dns/promises';

const resolvers = new Map<string, Resolver>();

/** For custom and sender domain checks: `DNS_SERVERS`, else the system's; bounded so a dead server answers in seconds. */
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
