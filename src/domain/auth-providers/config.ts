import { createPrivateKey, X509Certificate } from 'node:crypto';
import { MAX_ACCESS_TOKEN_SECONDS } from '../../auth/signing-keys.ts';
import type { AuthProviderType } from '../../db/entities/auth-provider.entity.ts';
import { invalid, type GatehouseError } from '../../errors.ts';
import { mayName, type InternalReach } from '../address-guard.ts';
import { isControlFree, isPlainText } from '../validate.ts';
import { secretDestination } from './secret-destination.ts';

/** One table per type; parsing is derived from it. Pure: no database, no transport. */
export const OAUTH_PROVIDERS = ['google', 'github', 'microsoft', 'apple', 'generic'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

type Config = Record<string, unknown>;

interface FieldBase {
  /** E.g. `tokenUrl` only for `generic` OAuth. */
  applies?: (config: Config) => boolean;
  /** For the 422 message. */
  appliesOnly?: string;
}

type Field = FieldBase &
  (
    | { kind: 'string'; required?: boolean; default?: string | null; max: number; pattern?: RegExp; shape?: string }
    | { kind: 'boolean'; default: boolean }
    | { kind: 'int'; min: number; max: number; default: number | null }
    | { kind: 'enum'; values: readonly string[]; required?: boolean; default?: string }
    | { kind: 'url'; required?: boolean; fetched?: boolean }
    | { kind: 'scopes'; default: (config: Config) => string[] }
    | { kind: 'certificate'; required: boolean }
  );

interface SecretSpec {
  required: (config: Config) => boolean;
  applies?: (config: Config) => boolean;
  /** `es256Key`: a PEM private key that can sign ES256 (EC P-256), as Apple's client secret is. */
  kind: 'string' | 'es256Key';
}

interface TypeSpec {
  config: Readonly<Record<string, Field>>;
  secrets: Readonly<Record<string, SecretSpec>>;
  defaultName: (config: Config) => string;
}

const allowSignup: Field = { kind: 'boolean', default: true };
const isProvider = (...providers: OAuthProvider[]) => (config: Config) => providers.includes(config['provider'] as OAuthProvider);
const notProvider = (...providers: OAuthProvider[]) => (config: Config) => !providers.includes(config['provider'] as OAuthProvider);

const explicitEndpoints = (config: Config) => config['provider'] === 'generic' && config['issuer'] == null;

const OAUTH_DEFAULT_SCOPES: Record<OAuthProvider, string[]> = {
  google: ['openid', 'email', 'profile'],
  github: ['read:user', 'user:email'],
  microsoft: ['openid', 'email', 'profile'],
  apple: ['name', 'email'],
  generic: ['openid', 'email', 'profile'],
};
const OAUTH_NAMES: Record<OAuthProvider, string> = { google: 'Google', github: 'GitHub', microsoft: 'Microsoft', apple: 'Apple', generic: 'OAuth' };

export const AUTH_PROVIDER_SPECS: Readonly<Record<AuthProviderType, TypeSpec>> = {
  password: {
    config: { allowSignup, requireEmailVerification: { kind: 'boolean', default: true } },
    secrets: {},
    defaultName: () => 'Password',
  },
  magic_link: {
    config: {
      allowSignup,
      linkLifetimeMinutes: { kind: 'int', min: 1, max: 60, default: 15 },
      // What the hosted page mails: a link, a one-time code to type (`email_otp`), or a choice of both.
      signInWith: { kind: 'enum', values: ['link', 'code', 'link_and_code'], default: 'link' },
    },
    secrets: {},
    defaultName: () => 'Magic link',
  },
  oauth: {
    config: {
      provider: { kind: 'enum', values: OAUTH_PROVIDERS, required: true },
      clientId: { kind: 'string', required: true, max: 512, pattern: /^\S+$/, shape: 'without spaces' },
      scopes: { kind: 'scopes', default: (config) => OAUTH_DEFAULT_SCOPES[config['provider'] as OAuthProvider] },
      // A generic provider is either an OpenID provider found by discovery at its `issuer`, or a plain OAuth 2.0 one
      // whose endpoints are given, the user's identity read at `userInfoUrl` (src/domain/sign-in/upstream/). The
      // service connects to the `fetched` ones (the browser alone to `authorizationUrl`).
      issuer: { kind: 'url', fetched: true, applies: isProvider('generic'), appliesOnly: 'provider generic' },
      authorizationUrl: { kind: 'url', required: true, applies: explicitEndpoints, appliesOnly: 'provider generic without an issuer' },
      tokenUrl: { kind: 'url', required: true, fetched: true, applies: explicitEndpoints, appliesOnly: 'provider generic without an issuer' },
      userInfoUrl: { kind: 'url', required: true, fetched: true, applies: explicitEndpoints, appliesOnly: 'provider generic without an issuer' },
      teamId: { kind: 'string', required: true, max: 10, pattern: /^[A-Z0-9]{10}$/, shape: 'of 10 upper-case letters or digits', applies: isProvider('apple'), appliesOnly: 'provider apple' },
      keyId: { kind: 'string', required: true, max: 10, pattern: /^[A-Z0-9]{10}$/, shape: 'of 10 upper-case letters or digits', applies: isProvider('apple'), appliesOnly: 'provider apple' },
      allowSignup,
    },
    secrets: {
      clientSecret: { kind: 'string', required: () => true, applies: notProvider('apple') },
      // Apple signs its client secret as a JWT with this key for every token request.
      privateKey: { kind: 'es256Key', required: () => true, applies: isProvider('apple') },
    },
    defaultName: (config) => OAUTH_NAMES[config['provider'] as OAuthProvider],
  },
  passkey: {
    // The RP ID is no setting: it is the host of the surface a passkey is registered on (src/domain/webauthn/).
    config: {
      rpName: { kind: 'string', default: null, max: 200 },
      // `required` refuses an assertion whose authenticator did not verify its user. Any that did proves two factors (`mfa`:
      // the MFA step is done), whatever this asks; one that did not proves one, and the MFA policy applies.
      userVerification: { kind: 'enum', values: ['required', 'preferred', 'discouraged'], default: 'required' },
      // Opt-in: a sign-up proves its address by a mailed code before its passkey is made (src/domain/webauthn/sign-up.ts).
      allowSignup: { kind: 'boolean', default: false },
    },
    secrets: {},
    defaultName: () => 'Passkeys',
  },
  saml: {
    config: {
      entityId: { kind: 'string', required: true, max: 1024, pattern: /^\S+$/, shape: 'without spaces' },
      ssoUrl: { kind: 'url', required: true },
      certificate: { kind: 'certificate', required: true },
      // AuthnRequests signed (RSA-SHA256) with the provider's SP key, whose certificate the metadata then publishes.
      signRequests: { kind: 'boolean', default: false },
      emailAttribute: { kind: 'string', default: 'email', max: 256 },
      // Where an IdP-initiated (unsolicited) response sends the browser: the application's page that starts its sign-in.
      idpInitiatedLoginUrl: { kind: 'url' },
      // The IdP's SingleLogoutService (HTTP-Redirect): set, the SP's metadata offers single logout and its LogoutRequests are answered.
      sloUrl: { kind: 'url' },
      allowSignup,
    },
    secrets: {},
    defaultName: () => 'SAML',
  },
  m2m: {
    // At most the hour every access token is bound to (MAX_ACCESS_TOKEN_SECONDS).
    config: { tokenLifetimeSeconds: { kind: 'int', min: 60, max: MAX_ACCESS_TOKEN_SECONDS, default: MAX_ACCESS_TOKEN_SECONDS } },
    secrets: {},
    defaultName: () => 'Machine-to-machine',
  },
  api_keys: {
    config: { maxLifetimeDays: { kind: 'int', min: 1, max: 3650, default: null } },
    secrets: {},
    defaultName: () => 'API keys',
  },
};

const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/; // RFC 6749 §3.3 scope-token

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * https, or also http on loopback (`GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS`); the service connects to no internal address
 * but loopback with that switch, or any with `UPSTREAM_ALLOW_PRIVATE_HOSTS`.
 */
export interface UrlRule {
  readonly allowLoopback: boolean;
  readonly allowPrivateHosts: boolean;
}

export const upstreamReach = (rule: UrlRule): InternalReach => (rule.allowPrivateHosts ? 'any' : rule.allowLoopback ? 'loopback' : 'none');

const LOOPBACK_HOSTS = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

export function acceptedScheme(url: URL, rule: UrlRule): boolean {
  return url.protocol === 'https:' || (rule.allowLoopback && url.protocol === 'http:' && LOOPBACK_HOSTS.test(url.hostname));
}

function checkField(field: string, spec: Field, value: unknown, rule: UrlRule): unknown {
  switch (spec.kind) {
    case 'string': {
      if (typeof value !== 'string' || value.trim() === '' || value.length > spec.max) {
        throw invalid(field, `${field} must be a non-empty string of at most ${spec.max} characters`);
      }
      // No setting holds a control character (`\S` matches a NUL, which PostgreSQL cannot store: a 500 at the write).
      if (!isControlFree(value)) throw invalid(field, `${field} must not contain control characters`);
      if (spec.pattern !== undefined && !spec.pattern.test(value)) throw invalid(field, `${field} must be a string ${spec.shape ?? ''}`.trim());
      return value;
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw invalid(field, `${field} must be a boolean`);
      return value;
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < spec.min || value > spec.max) {
        throw invalid(field, `${field} must be an integer from ${spec.min} to ${spec.max}`);
      }
      return value;
    case 'enum':
      if (typeof value !== 'string' || !spec.values.includes(value)) throw invalid(field, `${field} must be one of ${spec.values.join(', ')}`);
      return value;
    case 'url': {
      let url: URL | undefined;
      try {
        url = typeof value === 'string' && value.length <= 2048 ? new URL(value) : undefined;
      } catch {
        url = undefined;
      }
      if (url === undefined || !acceptedScheme(url, rule) || url.username !== '' || url.password !== '' || url.hash !== '') {
        const schemes = rule.allowLoopback ? 'an https URL (or http on a loopback address)' : 'an https URL';
        throw invalid(field, `${field} must be ${schemes} without credentials or fragment`);
      }
      // What a name resolves to is checked again at each connection (src/domain/sign-in/upstream/guarded-fetch.ts).
      if (spec.fetched === true && !mayName(url.hostname, upstreamReach(rule))) {
        throw invalid(field, `${field} may not be at a loopback, private, link-local or other internal address`);
      }
      return url.toString();
    }
    case 'scopes':
      if (!Array.isArray(value) || value.length > 50 || value.some((scope) => typeof scope !== 'string' || !SCOPE_TOKEN.test(scope))) {
        throw invalid(field, `${field} must be a list of at most 50 OAuth scope tokens`);
      }
      if (new Set(value).size !== value.length) throw invalid(field, `${field} may not repeat a scope`);
      return [...(value as string[])];
    case 'certificate': {
      let certified: string | undefined;
      try {
        // Lines, but no other control character: X509Certificate reads past a NUL after the PEM block.
        if (typeof value !== 'string' || !value.includes('-----BEGIN CERTIFICATE-----') || !isPlainText(value)) throw new Error('not PEM');
        certified = new X509Certificate(value).publicKey.asymmetricKeyType;
      } catch {
        throw invalid(field, `${field} must be a PEM-encoded X.509 certificate`);
      }
      // xml-crypto, which node-saml verifies with, knows RSA signatures alone: another key would verify no response.
      if (certified !== 'rsa' && certified !== 'rsa-pss') throw invalid(field, `${field} must hold an RSA public key: SAML signatures are verified with RSA only`);
      return value.trim();
    }
  }
}

function defaultOf(spec: Field, config: Config): unknown {
  if (spec.kind === 'scopes') return spec.default(config);
  if ('default' in spec) return spec.default ?? null;
  return null;
}

/** Quoted as JSON, so an empty key or one with quotes or dots reads unambiguously; `field` is a path only for names. */
function unknownKey(object: 'config' | 'secrets', key: string, problem: string): GatehouseError {
  return invalid(/^[_A-Za-z]\w*$/.test(key) ? `${object}.${key}` : object, `${object} key ${JSON.stringify(key)} ${problem}`);
}

/**
 * Unknown, inapplicable and missing required fields are 422 naming `config.<field>`; a field left out takes its
 * default. Read in table order, so `provider` is known before the fields that depend on it. `carried` (a PATCH's
 * stored config) fills fields left out, but for its defaults; those that no longer apply are dropped silently.
 */
export function parseConfig(type: AuthProviderType, given: unknown, carried: Readonly<Config> = {}, rule: UrlRule = { allowLoopback: false, allowPrivateHosts: false }): Config {
  if (given !== undefined && given !== null && !isPlainObject(given)) throw invalid('config', 'config must be an object');
  const raw = given ?? {};
  const spec = AUTH_PROVIDER_SPECS[type];
  for (const key of Object.keys(raw)) {
    if (!Object.hasOwn(spec.config, key)) throw unknownKey('config', key, `is not a setting of ${type} providers`);
  }
  const config: Config = {};
  for (const [name, field] of Object.entries(spec.config)) {
    const path = `config.${name}`;
    // A carried default follows the new configuration's: an OAuth provider moved to another preset takes its scopes.
    const carriedDefault = JSON.stringify(carried[name]) === JSON.stringify(defaultOf(field, carried));
    const value = Object.hasOwn(raw, name) ? raw[name] : carriedDefault ? undefined : carried[name];
    if (field.applies !== undefined && !field.applies(config)) {
      const explicit = raw[name] !== undefined && raw[name] !== null;
      if (explicit) throw invalid(path, `${path} applies only to ${field.appliesOnly ?? 'other configurations'}`);
      continue;
    }
    if (value === undefined || value === null) {
      if ('required' in field && field.required === true) throw invalid(path, `${path} is required`);
      config[name] = defaultOf(field, config);
    } else {
      config[name] = checkField(path, field, value, rule);
    }
  }
  if (type === 'oauth') refuseFailingScopes(config);
  return config;
}

/** Each a scope (or its alternatives) without which no sign-in gets what it needs, and what is then missing. */
function requiredScopes(config: Readonly<Config>): { scopes: string[]; lacking: string }[] {
  const address = "the user's e-mail address, by which accounts are found and made";
  if (config['provider'] === 'github') return [{ scopes: ['user:email', 'user'], lacking: address }];
  // A generic provider of endpoints alone reads the user at its userInfoUrl: its scopes mean what that server says.
  if (explicitEndpoints(config)) return [];
  // OIDC Core 5.4: the `email` claim is given for the `email` scope alone. Apple answers an ID token whatever is asked.
  const email = { scopes: ['email'], lacking: address };
  return config['provider'] === 'apple' ? [email] : [{ scopes: ['openid'], lacking: 'an ID token' }, email];
}

/** What an `oauth` provider's scopes lack for its sign-ins to get what they need, else undefined. Read of stored rows too,
 *  which are not re-checked until their config is written (surface-settings.ts warns of them, upstream/flow.ts says so). */
export function lackingScopes(config: Readonly<Config>): { scopes: string[]; lacking: string } | undefined {
  const scopes = Array.isArray(config['scopes']) ? (config['scopes'] as unknown[]) : [];
  return requiredScopes(config).find((needed) => !needed.scopes.some((scope) => scopes.includes(scope)));
}

/** Scopes with which every sign-in fails are refused. */
function refuseFailingScopes(config: Config): void {
  const missing = lackingScopes(config);
  if (missing !== undefined) {
    const provider = String(config['provider']);
    throw invalid('config.scopes', `config.scopes must include ${missing.scopes.join(' or ')} for provider ${provider}: without it no sign-in gets ${missing.lacking}`);
  }
}

/**
 * Secrets that no longer apply are dropped, and so are all stored ones once they would be sent elsewhere (an OAuth
 * provider's token endpoint changed), or whoever may write providers could have them posted to a server of theirs;
 * unknown or missing required ones are 422 naming `secrets.<name>`. New values are sealed by `seal`; only their names
 * ever leave (`secretsSet`). `stored`: the row's config and secrets before this write (null: a new provider).
 */
export function mergeSecrets(
  type: AuthProviderType,
  config: Config,
  stored: { readonly config: Readonly<Config>; readonly secrets: Readonly<Record<string, string>> | null } | null,
  changes: unknown,
  seal: (secret: string) => string,
): Record<string, string> | null {
  if (changes !== undefined && changes !== null && !isPlainObject(changes)) throw invalid('secrets', 'secrets must be an object');
  const spec = AUTH_PROVIDER_SPECS[type].secrets;
  const merged: Record<string, string> = {};
  const movedAway = stored !== null && type === 'oauth' && secretDestination(stored.config) !== secretDestination(config);
  for (const [name, secret] of Object.entries(spec)) {
    if (!movedAway && (secret.applies === undefined || secret.applies(config))) {
      const kept = stored?.secrets?.[name];
      if (kept !== undefined) merged[name] = kept;
    }
  }
  for (const [name, value] of Object.entries(changes ?? {})) {
    // Own keys only: `constructor` or `toString` would otherwise find Object.prototype's and be stored as a secret.
    const secret = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (secret === undefined) throw unknownKey('secrets', name, `is not a secret of ${type} providers`);
    const path = `secrets.${name}`;
    if (secret.applies !== undefined && !secret.applies(config)) throw invalid(path, `${path} does not apply to this configuration`);
    if (value === null) {
      delete merged[name];
      continue;
    }
    if (typeof value !== 'string' || value.trim() === '' || value.length > 16_384) {
      throw invalid(path, `${path} must be a non-empty string of at most 16384 characters`);
    }
    // A credential is sent in a header or a form as it is: a control character in one could never authenticate.
    if (secret.kind === 'string' && !isControlFree(value)) throw invalid(path, `${path} must not contain control characters`);
    if (secret.kind === 'es256Key' && !isEs256Key(value)) {
      throw invalid(path, `${path} must be a PEM-encoded EC P-256 private key (Apple's .p8): an ES256 client secret is signed with it`);
    }
    merged[name] = seal(value);
  }
  for (const [name, secret] of Object.entries(spec)) {
    const applies = secret.applies === undefined || secret.applies(config);
    if (applies && secret.required(config) && merged[name] === undefined) {
      const why = movedAway && stored?.secrets?.[name] !== undefined ? ': the stored one is not sent to another token endpoint' : '';
      throw invalid(`secrets.${name}`, `secrets.${name} is required${why}`);
    }
  }
  return Object.keys(merged).length === 0 ? null : merged;
}

function isEs256Key(pem: string): boolean {
  try {
    const key = createPrivateKey(pem);
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}

export function defaultProviderName(type: AuthProviderType, config: Config): string {
  return AUTH_PROVIDER_SPECS[type].defaultName(config);
}

/** Whose subjects an OAuth provider's links hold: a `sub` is unique only at its issuer. */
export function subjectIssuer(config: Readonly<Config>): string {
  const provider = String(config['provider']);
  return provider === 'generic' ? `generic ${String(config['issuer'] ?? config['userInfoUrl'])}` : provider;
}

/** Every type once, OAuth once per provider, `generic` any number (null: no limit). Backed by a unique index. */
export function providerSlot(type: AuthProviderType, config: Config): string | null {
  if (type !== 'oauth') return type;
  return config['provider'] === 'generic' ? null : `oauth:${String(config['provider'])}`;
}
