/**
 * The issuer a client's app is configured with: the service's, or, for a tenant's client while authentication is
 * isolated, the tenant's own sign-in surface (by id, which survives a rename of its slug).
 */
export function clientIssuer(issuer: URL, tenantId: string | null, isolated: boolean): string {
  const service = issuer.href.replace(/\/$/, '');
  return tenantId !== null && isolated ? `${service}/t/${tenantId}` : service;
}

export function discoveryUrl(issuer: string): string {
  return `${issuer}/.well-known/openid-configuration`;
}
