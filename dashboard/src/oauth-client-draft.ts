import type { IdTokenSigningAlg, OAuthClient, OAuthClientAuthMethod, OAuthClientSettings, OAuthClientType } from './operations-oauth-clients.ts';
import { CLIENT_TYPES } from './oauth-client-types.ts';

/** A client's settings as the form holds them: the URI and origin lists as text, one per line; no login URI is blank. */
export interface ClientDraft {
  readonly name: string;
  readonly redirectUris: string;
  readonly postLogoutRedirectUris: string;
  readonly allowedOrigins: string;
  readonly initiateLoginUri: string;
  readonly tokenEndpointAuthMethod: Exclude<OAuthClientAuthMethod, 'none'>;
  readonly idTokenSigningAlg: IdTokenSigningAlg;
  readonly managementApi: boolean;
}

export const NEW_CLIENT_DRAFT: ClientDraft = {
  name: '',
  redirectUris: '',
  postLogoutRedirectUris: '',
  allowedOrigins: '',
  initiateLoginUri: '',
  tokenEndpointAuthMethod: 'client_secret_basic',
  idTokenSigningAlg: 'ES256',
  managementApi: false,
};

export function draftOf(client: OAuthClient): ClientDraft {
  return {
    name: client.name,
    redirectUris: client.redirectUris.join('\n'),
    postLogoutRedirectUris: client.postLogoutRedirectUris.join('\n'),
    allowedOrigins: client.allowedOrigins.join('\n'),
    initiateLoginUri: client.initiateLoginUri ?? '',
    tokenEndpointAuthMethod: client.tokenEndpointAuthMethod === 'none' ? 'client_secret_basic' : client.tokenEndpointAuthMethod,
    idTokenSigningAlg: client.idTokenSigningAlg,
    managementApi: client.managementApi,
  };
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The API's input: the URIs and origins one per non-blank line, a blank login URI as none, the secret method for a confidential client
 *  only, allowed origins for a public one only. */
export function settingsOf(draft: ClientDraft, type: OAuthClientType): OAuthClientSettings {
  const { confidential, uriRule } = CLIENT_TYPES[type];
  const redirects = uriRule !== null;
  return {
    name: draft.name.trim(),
    redirectUris: redirects ? lines(draft.redirectUris) : [],
    postLogoutRedirectUris: redirects ? lines(draft.postLogoutRedirectUris) : [],
    initiateLoginUri: redirects && draft.initiateLoginUri.trim() !== '' ? draft.initiateLoginUri.trim() : null,
    ...(confidential ? { tokenEndpointAuthMethod: draft.tokenEndpointAuthMethod } : { allowedOrigins: lines(draft.allowedOrigins) }),
    idTokenSigningAlg: draft.idTokenSigningAlg,
    managementApi: draft.managementApi,
  };
}
