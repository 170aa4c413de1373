import { generateKeyPairSync } from 'node:crypto';
import { importJWK, SignJWT, type JWK } from 'jose';
import Provider, { type Adapter, type KoaContextWithOIDC } from 'oidc-provider';
import { AlreadyUsedError } from 'oidc-provider/lib/helpers/re_render_errors.js';
import { describe, expect, it, vi } from 'vitest';
import { SecretBox } from '../../src/auth/client-secrets.ts';
import type { OAuthClient } from '../../src/db/entities/oauth-client.entity.ts';
import { clientMetadata, GATEHOUSE_METADATA } from '../../src/oidc/clients.ts';
import { OIDC_PATHS } from '../../src/oidc/configuration.ts';
import { applyOverrides, DecidedDeviceCode, OIDC_PROVIDER_OVERRIDES, OVERRIDES_CHECKED_WITH } from '../../src/oidc/overrides.ts';
import { withSessionOf } from '../../src/oidc/session-application.ts';
import { USE_TTL_KEY } from '../../src/db/oidc-model.ts';
import { oidcProviderVersions } from '../support/oidc-provider-version.ts';

/**
 * The overrides of oidc-provider's internals (src/oidc/overrides.ts) hold for the version they were checked with: an
 * upgrade fails here, naming them, until each is checked again. Their effects are exercised here where no request is
 * needed; those that act inside one (`consume`, `save`, a refresh token's `find`, a session's `loginAccount`: they read
 * the request's context) are exercised end to end by test/oauth/token-errors.test.ts (a refused resource or user leaves
 * the code unspent), test/oauth/oauth-audit.test.ts (a rotated refresh token presented again with a wider scope or
 * while its user is held out is a reuse), test/oauth/api-resource-tokens.test.ts (an API resource token's scope is its
 * permissions) and the hosted sign-in tests (test/oauth/hosted-mfa.test.ts and the others: each method's session lists
 * it); test/oauth/logout.test.ts signs out and in silently with an ID token issued before its client's algorithm
 * changed, and confirms sign-outs whose post-logout URI or client went meanwhile (`entity` at the confirmation);
 * test/oauth/introspection.test.ts refuses a public client's introspection (`entity` there).
 */
const ISSUER = 'http://op.test';
const APPLICATION = '0193a5c0-0000-7000-8000-000000000001';

const privateJwk = (type: 'ec' | 'rsa', alg: string) => {
  const { privateKey } = type === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), alg, kid: `op-${alg}` };
};
const JWKS = { keys: [privateJwk('ec', 'ES256'), privateJwk('rsa', 'RS256')] };

/** `adapter`: the OP's storage; oidc-provider's in-memory one (shared by every instance in the process) by default. */
function provider(overridden: boolean, clients: Record<string, unknown>[] = [], adapter?: (model: string) => Adapter): Provider {
  const op = new Provider(ISSUER, {
    ...(adapter === undefined ? {} : { adapter }),
    clients: clients as never,
    jwks: JWKS,
    routes: OIDC_PATHS,
    extraClientMetadata: { properties: [GATEHOUSE_METADATA] },
    features: { devInteractions: { enabled: false } },
  });
  if (overridden) {
    applyOverrides(op, { findAccount: async () => undefined, servers: async () => undefined, tokenClaims: async () => undefined, isApiResource: () => false });
  }
  return op;
}

describe('the overrides of oidc-provider internals', () => {
  it('were checked with the installed oidc-provider, the one package.json pins', () => {
    const { pinned, installed } = oidcProviderVersions();
    const recheck = `oidc-provider ${installed} (package.json: ${pinned}) is not the version the overrides were checked with (${OVERRIDES_CHECKED_WITH}): check again ${Object.keys(OIDC_PROVIDER_OVERRIDES).join(', ')} in src/oidc/overrides.ts`;
    expect(installed, recheck).toBe(OVERRIDES_CHECKED_WITH);
    expect(pinned, recheck).toBe(OVERRIDES_CHECKED_WITH);
  });

  it('acceptPreviousSecret: a rotated secret’s predecessor authenticates until its grace period ends', async () => {
    const now = Date.now();
    const client = (id: string, expiresAtMs: number) => ({
      client_id: id,
      client_secret: 'the-current-secret',
      redirect_uris: ['https://app.test/cb'],
      id_token_signed_response_alg: 'ES256',
      [GATEHOUSE_METADATA]: { applicationId: APPLICATION, tenantId: null, type: 'confidential', permissions: [], previousSecret: { value: 'the-previous-secret', expiresAtMs } },
    });
    const op = provider(true, [client('in-grace', now + 600_000), client('grace-over', now - 1)]);
    const inGrace = (await op.Client.find('in-grace'))!;
    expect(await inGrace.compareClientSecret('the-current-secret')).toBe(true);
    expect(await inGrace.compareClientSecret('the-previous-secret')).toBe(true);
    expect(await inGrace.compareClientSecret('another-secret')).toBe(false);
    expect(await (await op.Client.find('grace-over'))!.compareClientSecret('the-previous-secret')).toBe(false);
    // Without the override oidc-provider knows the current secret only.
    const plain = (await provider(false, [client('in-grace', now + 600_000)]).Client.find('in-grace'))!;
    expect(await plain.compareClientSecret('the-previous-secret')).toBe(false);
  });

  it('acceptPreviousSecret: the predecessor’s grace ends at the stored millisecond, not at the whole second before it', async () => {
    const box = new SecretBox('a service secret', 'client secrets');
    const expiresAt = new Date('2030-01-01T00:00:00.900Z');
    const row = {
      id: 'rotated',
      name: 'Rotated',
      applicationId: APPLICATION,
      tenantId: null,
      type: 'web',
      authMethod: 'client_secret_basic',
      redirectUris: ['https://app.test/cb'],
      postLogoutRedirectUris: [],
      initiateLoginUri: null,
      idTokenSigningAlg: 'ES256',
      managementApi: false,
      permissions: [],
      jwks: null,
      secretEncrypted: box.encrypt('the-current-secret'),
      previousSecretEncrypted: box.encrypt('the-previous-secret'),
      previousSecretExpiresAt: expiresAt,
    } as unknown as OAuthClient;
    const op = provider(true, [clientMetadata(row, box, new Date('2030-01-01T00:00:00.000Z'))!]);
    const rotated = (await op.Client.find('rotated'))!;
    const previousAcceptedAt = async (iso: string) => {
      vi.setSystemTime(new Date(iso));
      return rotated.compareClientSecret('the-previous-secret');
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect(await previousAcceptedAt('2030-01-01T00:00:00.200Z')).toBe(true);
      expect(await previousAcceptedAt('2030-01-01T00:00:00.899Z')).toBe(true);
      expect(await previousAcceptedAt('2030-01-01T00:00:00.900Z')).toBe(false);
      expect(await previousAcceptedAt('2030-01-01T00:00:01.000Z')).toBe(false);
      expect(await rotated.compareClientSecret('the-current-secret')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('persistSavedSessionsOnly: a session never saved persists nothing, where oidc-provider throws', async () => {
    // oidc-provider's models take their fields at construction (its types declare none).
    const unsaved = (op: Provider) => new (op.Session as unknown as new (fields: object) => InstanceType<Provider['Session']>)({ jti: 'never-saved' });
    await expect(unsaved(provider(true)).persist()).resolves.toBe('never-saved');
    await expect(unsaved(provider(false)).persist()).rejects.toThrow();
  });

  it('persistSavedSessionsOnly: a session whose save the storage refused is not saved again, where oidc-provider tries once more', async () => {
    const refusing = () => {
      const upsert = vi.fn(async () => Promise.reject(new Error('refused by the storage')));
      return { upsert, adapter: () => ({ upsert }) as unknown as Adapter };
    };
    for (const overridden of [true, false]) {
      const { upsert, adapter } = refusing();
      const session = new ((provider(overridden, [], adapter)).Session as unknown as new (fields: object) => InstanceType<Provider['Session']>)({ jti: 'refused' });
      await expect(session.save(60)).rejects.toThrow('refused by the storage');
      const again = session.persist();
      if (overridden) await expect(again).resolves.toBe('refused');
      else await expect(again).rejects.toThrow('refused by the storage');
      expect(upsert).toHaveBeenCalledTimes(overridden ? 1 : 2);
    }
  });

  it('sessionKeepsSignInMethods: a session keeps its methods and last use as it is stored and read, where oidc-provider drops them; a login outside a request sets none', () => {
    const session = (op: Provider) =>
      new (op.Session as unknown as new (fields: object) => InstanceType<Provider['Session']>)({ jti: 'signed-in', accountId: 'a', methods: ['password', 'totp'], [USE_TTL_KEY]: 600 });
    expect(Reflect.get(session(provider(true)), 'methods')).toEqual(['password', 'totp']);
    expect(Reflect.get(session(provider(false)), 'methods')).toBeUndefined();
    expect(Reflect.get(session(provider(true)), USE_TTL_KEY)).toBe(600);
    expect(Reflect.get(session(provider(false)), USE_TTL_KEY)).toBeUndefined();
    const relogged = session(provider(true));
    relogged.loginAccount({ accountId: 'a' });
    expect(Reflect.get(relogged, 'methods')).toEqual([]);
  });

  it('logoutMarkFollowsGrant: a new grant for a client starts without the old one’s sign-out exemption; the same grant keeps it', () => {
    const marked = (op: Provider, grantId: string) => {
      const session = new (op.Session as unknown as new (fields: object) => InstanceType<Provider['Session']>)({ jti: 's', accountId: 'a' });
      session.grantIdFor('web', 'first');
      Object.assign(session.authorizationFor('web'), { persistsLogout: true });
      session.grantIdFor('web', grantId);
      return Reflect.get(session.authorizationFor('web'), 'persistsLogout') as unknown;
    };
    expect(marked(provider(true), 'second')).toBeUndefined();
    expect(marked(provider(true), 'first')).toBe(true);
    expect(marked(provider(false), 'second')).toBe(true);
  });

  it('sessionCookiePerApplication: the session cookie is the application’s own while the OP answers for it', async () => {
    const op = provider(true);
    const base = provider(false).cookieName('session');
    expect(await withSessionOf(APPLICATION, async () => op.cookieName('session'))).toBe(`${base}.${APPLICATION}`);
    expect(await withSessionOf(undefined, async () => op.cookieName('session'))).toBe(base);
    expect(await withSessionOf(APPLICATION, async () => op.cookieName('interaction'))).toBe(provider(false).cookieName('interaction'));
  });

  it('confirmationNamesApplication: the logout confirmation’s address names the session’s application', async () => {
    const { prototype } = (provider(true) as unknown as { OIDCContext: { prototype: Pick<KoaContextWithOIDC['oidc'], 'urlFor'> } }).OIDCContext;
    const context = { ctx: { req: {}, request: { url: '/oauth2/logout' }, href: `${ISSUER}/oauth2/logout` } };
    const urlFor = (name: string) => withSessionOf(APPLICATION, async () => prototype.urlFor.call(context, name));
    expect(await urlFor('end_session_confirm')).toBe(`${ISSUER}${OIDC_PATHS.end_session}/confirm?app=${APPLICATION}`);
    expect(await urlFor('token')).toBe(`${ISSUER}${OIDC_PATHS.token}`);
  });

  /** A device code as the device authorization makes it (oidc-provider's models take their fields at construction). */
  const deviceCode = (op: Provider, userCode: string, fields: object = {}) =>
    new (op.DeviceCode as unknown as new (fields: object) => InstanceType<Provider['DeviceCode']>)({ clientId: 'tv', userCode, params: {}, ...fields });

  it('reenterUnfinishedUserCodes: a code found by its user code is not in flight, where oidc-provider keeps it so', async () => {
    const found = async (op: Provider, userCode: string) => {
      await deviceCode(op, userCode, { inFlight: true }).save();
      return op.DeviceCode.findByUserCode(userCode);
    };
    expect(await found(provider(true), 'BCDFGHJK')).toMatchObject({ userCode: 'BCDFGHJK', inFlight: undefined });
    expect(await found(provider(false), 'BCDFGHJL')).toMatchObject({ userCode: 'BCDFGHJL', inFlight: true });
  });

  it('decidedDeviceCodeIsUsed: a save the adapter refuses over a decided code is oidc-provider’s "already used" refusal', async () => {
    const refusing = () => ({ upsert: () => Promise.reject(new DecidedDeviceCode()) }) as unknown as Adapter;
    await expect(deviceCode(provider(true, [], refusing), 'BCDFGHJM').save()).rejects.toBeInstanceOf(AlreadyUsedError);
    await expect(deviceCode(provider(false, [], refusing), 'BCDFGHJM').save()).rejects.toBeInstanceOf(DecidedDeviceCode);
  });

  it('hintOfFormerSigningAlg: an ID token hint signed by the OP in the other algorithm is valid; signed by another key, it is not', async () => {
    const client = { client_id: 'web', client_secret: 'a-secret', redirect_uris: ['https://app.test/cb'], id_token_signed_response_alg: 'ES256' };
    const idToken = async (jwk: JWK) =>
      new SignJWT({ sub: 'ada' }).setProtectedHeader({ alg: jwk.alg!, kid: jwk.kid! }).setIssuer(ISSUER).setAudience('web').setIssuedAt().setExpirationTime('5m').sign(await importJWK(jwk));
    const validate = async (op: Provider, token: string) => op.IdToken.validate(token, (await op.Client.find('web'))!);
    const [op, plain] = [provider(true, [client]), provider(false, [client])];
    const [ecKey, rsaKey] = JWKS.keys as JWK[];
    const formerAlg = await idToken(rsaKey!);
    await expect(validate(op, formerAlg)).resolves.toMatchObject({ payload: { sub: 'ada' } });
    await expect(validate(plain, formerAlg)).rejects.toThrow();
    await expect(validate(op, await idToken(ecKey!))).resolves.toMatchObject({ payload: { sub: 'ada' } });
    for (const [type, alg] of [['rsa', 'RS256'], ['ec', 'ES256']] as const) {
      await expect(validate(op, await idToken(privateJwk(type, alg))), alg).rejects.toThrow();
    }
  });

  it('the consume and save overrides are in place on the instance they were applied to, and only there', () => {
    const [op, plain] = [provider(true), provider(false)];
    for (const model of ['AuthorizationCode', 'RefreshToken', 'DeviceCode'] as const) {
      expect(Reflect.get(op[model].prototype, 'consume')).not.toBe(Reflect.get(plain[model].prototype, 'consume'));
    }
    for (const model of ['AccessToken', 'ClientCredentials'] as const) {
      expect(Reflect.get(op[model].prototype, 'save')).not.toBe(Reflect.get(plain[model].prototype, 'save'));
    }
  });
});
