/** Where an OAuth provider's client secret is posted: a stored secret is kept only while this stays (mergeSecrets). */
export function secretDestination(config: Readonly<Record<string, unknown>>): string {
  const provider = String(config['provider']);
  return provider === 'generic' ? `generic ${String(config['issuer'] ?? config['tokenUrl'])}` : provider;
}
