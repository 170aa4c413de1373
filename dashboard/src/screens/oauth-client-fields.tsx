import { useId } from 'react';
import { useRefusalMarks } from '../hooks/use-refused-field.ts';
import type { ClientDraft } from '../oauth-client-draft.ts';
import { CLIENT_TYPES, SECRET_METHODS } from '../oauth-client-types.ts';
import type { IdTokenSigningAlg, OAuthClientType } from '../operations-oauth-clients.ts';

interface OAuthClientFieldsProps {
  type: OAuthClientType;
  draft: ClientDraft;
  onChange: (draft: ClientDraft) => void;
}

/** The settings a client's creation and its edit share, those its type has: name, URIs, login URI, allowed origins, secret method,
 *  signing, management API. */
export function OAuthClientFields({ type, draft, onChange }: OAuthClientFieldsProps) {
  const id = useId();
  const { confidential, uriRule } = CLIENT_TYPES[type];
  const set = <K extends keyof ClientDraft>(key: K, value: ClientDraft[K]) => onChange({ ...draft, [key]: value });
  const marks = {
    name: useRefusalMarks('name'),
    redirectUris: useRefusalMarks('redirectUris', `${id}-uris-hint`),
    postLogoutRedirectUris: useRefusalMarks('postLogoutRedirectUris', `${id}-uris-hint`),
    initiateLoginUri: useRefusalMarks('initiateLoginUri', `${id}-login-hint`),
    allowedOrigins: useRefusalMarks('allowedOrigins', `${id}-origins-hint`),
    tokenEndpointAuthMethod: useRefusalMarks('tokenEndpointAuthMethod'),
    idTokenSigningAlg: useRefusalMarks('idTokenSigningAlg'),
    managementApi: useRefusalMarks('managementApi', `${id}-management-hint`),
  };
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} type="text" required maxLength={200} {...marks.name} value={draft.name} onChange={(event) => set('name', event.target.value)} />
      </div>
      {uriRule !== null && (
        <>
          <div className="field">
            <label htmlFor={`${id}-redirects`}>Redirect URIs</label>
            <textarea
              id={`${id}-redirects`}
              rows={3}
              {...marks.redirectUris}
              value={draft.redirectUris}
              onChange={(event) => set('redirectUris', event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-logout`}>Post-logout redirect URIs</label>
            <textarea
              id={`${id}-logout`}
              rows={2}
              {...marks.postLogoutRedirectUris}
              value={draft.postLogoutRedirectUris}
              onChange={(event) => set('postLogoutRedirectUris', event.target.value)}
            />
          </div>
          <p id={`${id}-uris-hint`} className="hint">{`One URI per line, absolute and matched exactly: no fragment, no wildcard; ${uriRule}.`}</p>
          <div className="field">
            <label htmlFor={`${id}-login`}>Login URI</label>
            <input
              id={`${id}-login`}
              type="url"
              {...marks.initiateLoginUri}
              value={draft.initiateLoginUri}
              onChange={(event) => set('initiateLoginUri', event.target.value)}
            />
            <p id={`${id}-login-hint`} className="hint">
              Optional: the page of the app that starts its sign-in (initiate_login_uri), where Gatehouse’s links back to
              the app lead, with the issuer in <code>iss</code>. Without one, a web or single-page app’s lead to the origin
              of its first redirect URI, a native app’s nowhere. https (http only for localhost or 127.0.0.1 while
              developing), no fragment.
            </p>
          </div>
        </>
      )}
      {!confidential && (
        <div className="field">
          <label htmlFor={`${id}-origins`}>Allowed origins (CORS)</label>
          <textarea id={`${id}-origins`} rows={2} {...marks.allowedOrigins} value={draft.allowedOrigins} onChange={(event) => set('allowedOrigins', event.target.value)} />
          <p id={`${id}-origins-hint`} className="hint">
            Optional, one per line: origins the app calls the token and userinfo endpoints from, besides those of its
            redirect URIs, such as <code>capacitor://localhost</code> or <code>http://localhost</code> for a hybrid app’s web
            view. scheme://host[:port] only: no path, not even a trailing /.
          </p>
        </div>
      )}
      {confidential && (
        <div className="field">
          <label htmlFor={`${id}-method`}>Secret sent as</label>
          <select
            id={`${id}-method`}
            {...marks.tokenEndpointAuthMethod}
            value={draft.tokenEndpointAuthMethod}
            onChange={(event) => set('tokenEndpointAuthMethod', event.target.value as ClientDraft['tokenEndpointAuthMethod'])}
          >
            {SECRET_METHODS.map((method) => <option key={method.value} value={method.value}>{method.label}</option>)}
          </select>
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-alg`}>ID token signature</label>
        <select id={`${id}-alg`} {...marks.idTokenSigningAlg} value={draft.idTokenSigningAlg} onChange={(event) => set('idTokenSigningAlg', event.target.value as IdTokenSigningAlg)}>
          <option value="ES256">ES256 (recommended)</option>
          <option value="RS256">RS256, for apps that support no other</option>
        </select>
      </div>
      <div className="field">
        <label>
          <input type="checkbox" checked={draft.managementApi} {...marks.managementApi} onChange={(event) => set('managementApi', event.target.checked)} />
          Management API access
        </label>
        <p id={`${id}-management-hint`} className="hint">
          Users signing in through this client may get tokens for Gatehouse’s management API, acting with their own
          permissions. Leave it off unless the app manages Gatehouse.
        </p>
      </div>
    </>
  );
}
