import type { OAuthClientType } from '../../db/entities/oauth-client.entity.ts';
import { executeOwned, type SqlRunner } from '../../db/owned-sql.ts';

export interface ClientHome {
  readonly type: OAuthClientType;
  readonly redirectUris: readonly string[];
  readonly initiateLoginUri: string | null;
}

/** The client's login URI, told the issuer to sign in at (`iss`, OIDC Core 4); else a guess, the origin of a web or SPA
 *  client's first redirect URI. A native app's URIs (private-use scheme, loopback listener) are no page to open. */
export function clientHomeUrl(client: ClientHome, issuer: string): string | undefined {
  if (client.initiateLoginUri !== null) {
    const separator = client.initiateLoginUri.includes('?') ? '&' : '?';
    return `${client.initiateLoginUri}${separator}iss=${encodeURIComponent(issuer)}`;
  }
  if (client.type !== 'web' && client.type !== 'spa') return undefined;
  const first = client.redirectUris[0];
  if (first === undefined || !URL.canParse(first)) return undefined;
  const { origin } = new URL(first);
  return origin === 'null' ? undefined : `${origin}/`;
}

/** Read apart from the OP (an invitation's page, a mail); undefined for no such client, or one without a page. */
export async function readClientHome(runner: SqlRunner, applicationId: string, clientId: string, issuer: string): Promise<{ name: string; url: string } | undefined> {
  const [row] = await executeOwned<{ name: string; type: OAuthClientType; redirect_uris: string[]; initiate_login_uri: string | null }[]>(
    runner,
    applicationId,
    'select name, type, redirect_uris, initiate_login_uri from oauth_client where @owner and id = ? and revoked_at is null',
    [clientId],
  );
  if (row === undefined) return undefined;
  const url = clientHomeUrl({ type: row.type, redirectUris: row.redirect_uris, initiateLoginUri: row.initiate_login_uri }, issuer);
  return url === undefined ? undefined : { name: row.name, url };
}
