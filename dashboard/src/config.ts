/** What the Gatehouse server tells the dashboard through the meta tags it adds to index.html when serving it. */
export interface DashboardConfig {
  /** The OIDC issuer; discovery is at `${issuer}/.well-known/openid-configuration`. */
  readonly issuer: URL;
  readonly clientId: string;
  /** The organization whose console the client is. */
  readonly organizationId: string;
  /** The management API's resource indicator (RFC 8707), so the access token is for that API. */
  readonly managementAudience: string;
}

function meta(name: string): string {
  const content = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;
  if (!content) throw new Error(`The page has no <meta name="${name}">: open the dashboard through the Gatehouse server.`);
  return content;
}

export function readConfig(): DashboardConfig {
  return {
    issuer: new URL(meta('gatehouse-issuer')),
    clientId: meta('gatehouse-client-id'),
    organizationId: meta('gatehouse-organization'),
    managementAudience: meta('gatehouse-management-audience'),
  };
}
