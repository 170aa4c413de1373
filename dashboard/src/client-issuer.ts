/** The service's, or for a tenant's client while isolated, the tenant's surface by id (which survives a slug's rename). */
export function clientIssuer(issuer: URL, tenantId: string | null, isolated: boolean): string {
  const service = issuer.href.replace(/\/$/, '');
  return tenantId !== null && isolated ? `${service}/t/${tenantId}` : service;
}

export function discoveryUrl(issuer: string): string {
  return `${issuer}/.well-known/openid-configuration`;
}
