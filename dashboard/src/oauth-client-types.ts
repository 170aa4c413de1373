import type { OAuthClientAuthMethod, OAuthClientType } from './operations-oauth-clients.ts';

export interface ClientTypeInfo {
  readonly label: string;
  /** One line on when to choose it. */
  readonly explanation: string;
  /** Whether it keeps a secret (confidential) rather than proving itself with PKCE alone. */
  readonly confidential: boolean;
  /** The schemes and hosts its redirect URIs may use; null: it has none (the device grant, RFC 8628). */
  readonly uriRule: string | null;
}

const HTTPS_RULE = 'https (http only for localhost or 127.0.0.1 while developing)';

/** The four kinds of sign-in client, in the order the form offers them. */
export const CLIENT_TYPES: Readonly<Record<OAuthClientType, ClientTypeInfo>> = {
  web: {
    label: 'Web application',
    explanation: 'A server-side app that keeps a client secret (confidential).',
    confidential: true,
    uriRule: HTTPS_RULE,
  },
  spa: {
    label: 'Single-page application',
    explanation: 'Runs in the browser: no secret, it signs in with PKCE.',
    confidential: false,
    uriRule: HTTPS_RULE,
  },
  native: {
    label: 'Native application',
    explanation: 'A mobile or desktop app: no secret, it signs in with PKCE.',
    confidential: false,
    uriRule: 'claimed https, a reverse-domain scheme (com.example.app:/callback) or http://127.0.0.1:{port} (RFC 8252)',
  },
  device: {
    label: 'Device',
    explanation: 'A TV or command-line tool whose user signs in on another screen with a code (device grant); no redirect URIs.',
    confidential: false,
    uriRule: null,
  },
};

export const CLIENT_TYPE_ORDER = Object.keys(CLIENT_TYPES) as OAuthClientType[];

/** The confidential client's ways of sending its secret to the token endpoint. */
export const SECRET_METHODS: readonly { readonly value: Exclude<OAuthClientAuthMethod, 'none'>; readonly label: string }[] = [
  { value: 'client_secret_basic', label: 'HTTP Basic header (client_secret_basic)' },
  { value: 'client_secret_post', label: 'Form body (client_secret_post)' },
];
