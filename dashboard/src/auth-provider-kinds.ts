import type { AuthProvider, AuthProviderType } from './operations-email-auth.ts';
import type { SettingField, SettingsDraft } from './setting-fields.ts';

/** A write-only secret of a provider type, as `secretsSet` names it. */
export interface ProviderSecret {
  readonly name: string;
  readonly label: string;
  /** A PEM key is typed on several lines. */
  readonly rows?: number;
  readonly applies?: (draft: SettingsDraft) => boolean;
}

/** A type of auth provider as the dashboard offers it: its name, its settings and its secrets (src/domain/auth-providers/config.ts). */
export interface AuthProviderKind {
  readonly label: string;
  readonly fields: readonly SettingField[];
  readonly secrets: readonly ProviderSecret[];
  /** What the form says about the type as a whole. */
  readonly hint?: string;
  /** A type that turns nothing on or off (m2m, api_keys): its `enabled` only says whether its settings apply. */
  readonly settingsOnly?: true;
}

const allowSignup: SettingField = {
  kind: 'boolean',
  name: 'allowSignup',
  label: 'Allow sign-up',
  hint: 'Someone without an account may open one by signing in with it.',
  initial: true,
};
const isOAuth = (...providers: string[]) => (draft: SettingsDraft) => providers.includes(String(draft['provider']));
const explicitEndpoints = (draft: SettingsDraft) => draft['provider'] === 'generic' && String(draft['issuer'] ?? '').trim() === '';
const endpoint = (name: string, label: string): SettingField => ({ kind: 'text', name, label, hint: 'https.', applies: explicitEndpoints });
const appleId = (name: string, label: string): SettingField => ({
  kind: 'text',
  name,
  label,
  hint: '10 upper-case letters or digits, from Apple’s developer account.',
  applies: isOAuth('apple'),
});

/** An OAuth provider's preset: the identity provider it signs in with. */
const oauthPreset = {
  kind: 'choice',
  name: 'provider',
  label: 'Identity provider',
  choices: [
    { value: 'google', label: 'Google' },
    { value: 'github', label: 'GitHub' },
    { value: 'microsoft', label: 'Microsoft' },
    { value: 'apple', label: 'Apple' },
    { value: 'generic', label: 'Other (OAuth 2.0 or OpenID Connect)' },
  ],
} as const satisfies SettingField;

/** The types createAuthProvider accepts, in the schema's order (schema/auth-providers.graphql, AuthProviderType). */
export const AUTH_PROVIDER_KINDS: Readonly<Record<AuthProviderType, AuthProviderKind>> = {
  password: {
    label: 'Password',
    fields: [allowSignup, { kind: 'boolean', name: 'requireEmailVerification', label: 'Require a verified e-mail address', initial: true }],
    secrets: [],
  },
  magic_link: {
    label: 'Magic link',
    fields: [
      allowSignup,
      { kind: 'number', name: 'linkLifetimeMinutes', label: 'Link lifetime (minutes)', hint: '1 to 60: how long a link or code works; empty: 15.' },
      {
        kind: 'choice',
        name: 'signInWith',
        label: 'Mail to sign in with',
        choices: [
          { value: 'link', label: 'A link' },
          { value: 'code', label: 'A one-time code' },
          { value: 'link_and_code', label: 'A link or a code, as the user chooses' },
        ],
      },
    ],
    secrets: [],
  },
  oauth: {
    label: 'OAuth',
    fields: [
      oauthPreset,
      { kind: 'text', name: 'clientId', label: 'Client ID' },
      { kind: 'words', name: 'scopes', label: 'Scopes', hint: 'Separated by spaces; empty: the identity provider’s usual ones.' },
      {
        kind: 'text',
        name: 'issuer',
        label: 'Issuer',
        hint: 'An OpenID provider, found by discovery (https); empty: give its endpoints instead.',
        applies: isOAuth('generic'),
      },
      endpoint('authorizationUrl', 'Authorization URL'),
      endpoint('tokenUrl', 'Token URL'),
      endpoint('userInfoUrl', 'User info URL'),
      appleId('teamId', 'Team ID'),
      appleId('keyId', 'Key ID'),
      allowSignup,
    ],
    secrets: [
      { name: 'clientSecret', label: 'Client secret', applies: (draft) => !isOAuth('apple')(draft) },
      { name: 'privateKey', label: 'Private key (PEM)', rows: 5, applies: isOAuth('apple') },
    ],
  },
  passkey: {
    label: 'Passkey',
    fields: [
      { kind: 'text', name: 'rpName', label: 'Name authenticators show', hint: 'Empty: the sign-in page’s name.' },
      {
        kind: 'choice',
        name: 'userVerification',
        label: 'User verification',
        hint: 'Required: a passkey that verified its user counts as both factors.',
        choices: [
          { value: 'required', label: 'Required' },
          { value: 'preferred', label: 'Preferred' },
          { value: 'discouraged', label: 'Discouraged' },
        ],
      },
      {
        ...allowSignup,
        hint: 'Someone without an account may open one with a new passkey, once a code mailed to their address proves it.',
        initial: false,
      },
    ],
    secrets: [],
    hint: 'Signed-in users add passkeys from their account page.',
  },
  saml: {
    label: 'SAML',
    fields: [
      { kind: 'text', name: 'entityId', label: 'IdP entity ID' },
      { kind: 'text', name: 'ssoUrl', label: 'IdP sign-in URL', hint: 'Its single sign-on service (https).' },
      { kind: 'text', name: 'certificate', label: 'IdP certificate (PEM)', rows: 5, hint: 'The X.509 certificate that signs its responses.' },
      { kind: 'boolean', name: 'signRequests', label: 'Sign the authentication requests', initial: false },
      { kind: 'text', name: 'emailAttribute', label: 'E-mail attribute', hint: 'The attribute holding the e-mail address; empty: email.' },
      {
        kind: 'text',
        name: 'idpInitiatedLoginUrl',
        label: 'IdP-initiated sign-in URL',
        hint: 'Your application’s page that starts its sign-in (https); empty: sign-ins started at the IdP are refused.',
      },
      {
        kind: 'text',
        name: 'sloUrl',
        label: 'IdP single logout URL',
        hint: 'Its single logout service (https): a sign-out there ends the user’s sessions here, and one here goes through it. Empty: no single logout.',
      },
      allowSignup,
    ],
    secrets: [],
  },
  m2m: {
    label: 'M2M',
    fields: [{ kind: 'number', name: 'tokenLifetimeSeconds', label: 'Token lifetime (seconds)', hint: '60 to 3600; empty: 3600.' }],
    secrets: [],
    hint: 'Machine-to-machine clients: tokens by client credentials. They work with or without this provider: it sets their token lifetime while its settings apply.',
    settingsOnly: true,
  },
  api_keys: {
    label: 'API keys',
    fields: [{ kind: 'number', name: 'maxLifetimeDays', label: 'Longest key lifetime (days)', hint: '1 to 3650; empty: no limit.' }],
    secrets: [],
    hint: 'API keys work with or without this provider: it limits their lifetime while its settings apply.',
    settingsOnly: true,
  },
};

export const AUTH_PROVIDER_TYPES = Object.keys(AUTH_PROVIDER_KINDS) as AuthProviderType[];

export function secretsOf(kind: AuthProviderKind, draft: SettingsDraft): readonly ProviderSecret[] {
  return kind.secrets.filter((secret) => secret.applies === undefined || secret.applies(draft));
}

/** How a provider's type reads in its row: an OAuth provider's with its preset, which tells two of them apart. */
export function typeWords(provider: Pick<AuthProvider, 'type' | 'config'>): string {
  const { label } = AUTH_PROVIDER_KINDS[provider.type];
  const preset = provider.type === 'oauth' ? oauthPreset.choices.find((choice) => choice.value === provider.config['provider']) : undefined;
  return preset === undefined ? label : `${label}: ${preset.label}`;
}

/** How a provider's `enabled` reads in its row, its button and its form: a settings-only type's says whether its settings apply. */
export function enabledWords(type: AuthProviderType) {
  return AUTH_PROVIDER_KINDS[type].settingsOnly === true
    ? { state: (on: boolean) => (on ? 'Settings applied' : 'Settings not applied'), toggle: (on: boolean) => (on ? 'Stop applying' : 'Apply settings'), checkbox: 'Apply these settings' }
    : { state: (on: boolean) => (on ? 'Yes' : 'No'), toggle: (on: boolean) => (on ? 'Disable' : 'Enable'), checkbox: 'Enabled' };
}
