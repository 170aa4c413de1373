/** Where an OAuth provider's client secret is posted (its token endpoint): the preset's, the one a generic `issuer`'s
 *  discovery names, or a generic `tokenUrl`. A stored secret is kept only while this stays (config.ts, mergeSecrets);
 *  the dashboard reads it too, to say whether an empty secret field keeps one. */
export function secretDestination(config: Readonly<Record<string, unknown>>): string {
  const provider = String(config['provider']);
  return provider === 'generic' ? `generic ${String(config['issuer'] ?? config['tokenUrl'])}` : provider;
}
