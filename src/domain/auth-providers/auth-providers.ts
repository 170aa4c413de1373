import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { lockForTransaction } from '../../db/advisory-lock.ts';
import type { Application } from '../../db/entities/index.ts';
import { AuthProvider, Tenant } from '../../db/entities/index.ts';
import { AUTH_PROVIDER_TYPES, type AuthProviderType } from '../../db/entities/auth-provider.entity.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { recordAudit, secretNames, secretNamesSql, withWrittenSecrets, type AuditActor } from '../audit/audit.ts';
import { auditedFieldsOf, auditedSnapshot } from '../audit/audited-fields.ts';
import { actingSubjects } from '../authorization/held-roles.ts';
import { uniquely } from '../db-errors.ts';
import { APPLICATION_ROWS } from '../loaders.ts';
import { gracePeriodSeconds } from '../oauth-clients/secrets.ts';
import { certificateFingerprint, rotateSamlSpKey as rotateSpKeyPair, type SamlSpCertificates } from '../sign-in/saml-keys.ts';
import { samlUrls } from '../sign-in/saml.ts';
import { forgetSamlSubjects } from '../sign-in/saml-logout.ts';
import { configurationChanged } from '../tenancy/changed.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import { pageSize, type Page, type PageArgs, scopedList } from '../pagination.ts';
import type { Source } from '../tenancy/settings.ts';
import { displayName } from '../validate.ts';
import { removeProviderLinks } from '../users/upstream-links.ts';
import { defaultProviderName, mergeSecrets, parseConfig, providerSlot, subjectIssuer } from './config.ts';

/** A tenant's own providers only while `isolated`; a tenant with any uses exactly those (`customized`), else the
 *  application's (`inherited`; spec, tenancy rule 7). Secrets are write-only. */
export interface AuthProviderView {
  id: string;
  applicationId: string;
  tenantId: string | null;
  type: AuthProviderType;
  name: string;
  enabled: boolean;
  config: Record<string, unknown>;
  /** Never their values. */
  secretsSet: string[];
  /** For a tenant scope: the tenant's own or the application's. Null at application scope. */
  source: Source | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface CreateAuthProviderInput {
  type: string;
  name?: string | null;
  enabled?: boolean | null;
  config?: Record<string, unknown> | null;
  secrets?: Record<string, unknown> | null;
}

export interface UpdateAuthProviderInput {
  name?: string | null;
  enabled?: boolean | null;
  config?: Record<string, unknown> | null;
  secrets?: Record<string, unknown> | null;
}

/** Secrets leave only as their names. */
export function presentAuthProvider(provider: AuthProvider, source: Source | null): AuthProviderView {
  return {
    id: provider.id,
    applicationId: provider.applicationId,
    tenantId: provider.tenantId ?? null,
    type: provider.type,
    name: provider.name,
    enabled: provider.enabled,
    config: provider.config,
    secretsSet: secretNames(provider.secrets),
    source,
    createdAt: provider.createdAt,
    updatedAt: provider.updatedAt,
  };
}

/** A dump of the table reveals none, as for OAuth client secrets. */
const sealWith = (scope: Scope) => (secret: string) => scope.services.storedSecrets.encrypt(secret);

const field = auditedFieldsOf<AuthProvider>();
const PROVIDER_SNAPSHOT = auditedSnapshot([
  field.value('id'),
  field.value('tenantId'),
  field.value('type'),
  field.value('name'),
  field.value('enabled'),
  field.value('config'),
  field.derived('secretsSet', (provider) => secretNames(provider.secrets), (sqlOf) => secretNamesSql(sqlOf('secrets'))),
]);
const snapshot = (provider: AuthProvider) => PROVIDER_SNAPSHOT.of(provider);
export const authProviderSnapshotSql = PROVIDER_SNAPSHOT.sql;

function typeOf(type: string): AuthProviderType {
  if (!(AUTH_PROVIDER_TYPES as readonly string[]).includes(type)) {
    throw invalid('type', `type must be one of ${AUTH_PROVIDER_TYPES.join(', ')}`);
  }
  return type as AuthProviderType;
}

function isolated(application: Application): boolean {
  return application.multiTenant && application.authIsolation === 'isolated';
}

export function assertAuthIsolated(application: Application, what: string): void {
  if (!isolated(application)) {
    throw new GatehouseError('tenant_customization_disabled', `Tenant ${what} need tenancyConfig.authIsolation = isolated`, {
      field: 'tenancyConfig.authIsolation',
    });
  }
}

async function assertTenantExists(scope: Scope, tenantId: string): Promise<void> {
  if ((await scope.em.count(Tenant, { id: tenantId })) === 0) throw notFound('Tenant', 'tenantId');
}

/** Not ways in: they govern token settings for their scope, and make no sign-in set a tenant's own. */
const TOKEN_PROVIDER_TYPES: readonly AuthProviderType[] = ['m2m', 'api_keys'];

export function signsIn(type: AuthProviderType): boolean {
  return !TOKEN_PROVIDER_TYPES.includes(type);
}

/** For a tenant scope, whose provider it is; null at application scope. */
export function sourceIn(tenantId: string | null, provider: Pick<AuthProvider, 'tenantId'>): Source | null {
  if (tenantId === null) return null;
  return provider.tenantId == null ? 'inherited' : 'customized';
}

/** An isolated tenant's own providers, whole (spec rule 7: one that adds Google signs in with Google alone). `m2m` and
 *  `api_keys` sign no one in: with only those, the application's sign-in providers apply. */
function providersInForce(own: readonly AuthProvider[], application: readonly AuthProvider[]): { providers: AuthProvider[]; source: Source } {
  if (own.some((provider) => signsIn(provider.type))) return { providers: [...own], source: 'customized' };
  const inherited = own.length === 0 ? application : application.filter((provider) => signsIn(provider.type));
  return { providers: [...own, ...inherited].sort((a, b) => (a.id < b.id ? -1 : 1)), source: 'inherited' };
}

/** Through the request's loader: a page of tenants reads all their rows and the application's in one statement. */
export async function effectiveAuthProviders(scope: Scope, tenantId: string | null): Promise<{ providers: AuthProvider[]; source: Source | null }> {
  const rows = (key: string) => scope.loaders.authProviders.load(key);
  if (tenantId === null) return { providers: await rows(APPLICATION_ROWS), source: null };
  const application = await scope.application();
  if (!isolated(application)) return { providers: await rows(APPLICATION_ROWS), source: 'inherited' };
  const [own, applicationRows] = await Promise.all([rows(tenantId), rows(APPLICATION_ROWS)]);
  return providersInForce(own, applicationRows);
}

/** Null when none is enabled or it leaves the setting unset: a disabled provider imposes nothing. */
export async function providerSetting(scope: Scope, tenantId: string | null, type: AuthProviderType, setting: string): Promise<unknown> {
  return enabledProviderSetting((await effectiveAuthProviders(scope, tenantId)).providers, type, setting);
}

export function enabledProviderSetting(providers: readonly Pick<AuthProvider, 'type' | 'enabled' | 'config'>[], type: AuthProviderType, setting: string): unknown {
  return providers.find((provider) => provider.type === type && provider.enabled)?.config[setting] ?? null;
}

export async function listAuthProviders(scope: Scope, args: PageArgs): Promise<Page<AuthProviderView>> {
  const size = pageSize(args);
  const list = scopedList(scope, 'auth-providers');
  const after = args.cursor == null ? undefined : scope.services.cursors.decode(list, args.cursor);
  const { providers } = await effectiveAuthProviders(scope, scope.tenantId);
  // Loader rows are ordered by id (UUIDv7: creation order), so the page is a keyset page like the others.
  const rest = after === undefined ? providers : providers.filter((provider) => provider.id > after);
  const data = rest.slice(0, size);
  const last = data.at(-1);
  return {
    data: data.map((provider) => presentAuthProvider(provider, sourceIn(scope.tenantId, provider))),
    next: rest.length > size && last !== undefined ? scope.services.cursors.encode(list, last.id) : null,
  };
}

/** Among those in force for the scope (a tenant's effective set), else 404. */
export async function getAuthProvider(scope: Scope, providerId: string): Promise<AuthProviderView> {
  const { providers } = await effectiveAuthProviders(scope, scope.tenantId);
  const provider = providers.find((candidate) => candidate.id === providerId);
  if (provider === undefined) throw notFound('Auth provider', 'providerId');
  return presentAuthProvider(provider, sourceIn(scope.tenantId, provider));
}

async function assertSlotFree(scope: Scope, em: Scope['em'], type: AuthProviderType, config: Record<string, unknown>, exceptId?: string) {
  const slot = providerSlot(type, config);
  if (slot === null) return;
  const siblings = await em.find(AuthProvider, { tenantId: scope.tenantId, type, ...(exceptId === undefined ? {} : { id: { $ne: exceptId } }) });
  if (siblings.some((sibling) => providerSlot(sibling.type, sibling.config) === slot)) {
    const field = type === 'oauth' ? 'config.provider' : 'type';
    const what = type === 'oauth' ? `An OAuth provider for ${String(config['provider'])}` : `A ${type} provider`;
    throw new GatehouseError('already_exists', `${what} already exists ${scope.tenantId === null ? 'for the application' : 'for this tenant'}`, { field });
  }
}

/** A new application's password provider, enabled, shown and switched off like any other (Auth0's database connection).
 *  Audited in the new application. */
export function insertPasswordProvider(em: EntityManager, actor: AuditActor, applicationId: string, config: Record<string, unknown> = {}): void {
  const parsed = parseConfig('password', config);
  const created = em.create(AuthProvider, {
    applicationId,
    id: newId(),
    tenantId: null,
    type: 'password',
    name: defaultProviderName('password', parsed),
    enabled: true,
    config: parsed,
    secrets: null,
    // A password proves itself: no one's word is taken for its accounts.
    configuredBy: null,
  });
  recordAudit(em, { ...actor, applicationId, tenantId: null }, { action: 'auth_provider.created', targetType: 'auth_provider', targetId: created.id, after: snapshot(created) });
}

/** The turn of a change that may leave the console's sign-in providers, so two at once cannot each leave the other's. */
const consoleSignInLock = (scope: Scope, application: Application): string[] =>
  application.console && scope.tenantId === null ? [`gatehouse:console-sign-in:${application.id}`] : [];

/** Operators sign in through the console's providers: leaving it no enabled sign-in provider is refused, as no one could
 *  sign in to undo it. Begun in its turn at consoleSignInLock. */
async function assertConsoleKeepsSignIn(scope: Scope, em: Scope['em'], application: Application, leaving: AuthProvider, field: string): Promise<void> {
  const [lock] = consoleSignInLock(scope, application);
  if (lock === undefined || !signsIn(leaving.type) || !leaving.enabled) return;
  await lockForTransaction(em, lock);
  const others = await em.find(AuthProvider, { tenantId: null, enabled: true, id: { $ne: leaving.id } });
  if (!others.some((provider) => signsIn(provider.type))) {
    throw new GatehouseError('last_sign_in_provider', "The console's last enabled sign-in provider cannot be disabled or deleted: operators sign in to the dashboard with it", { field });
  }
}

/** A tenant's own needs `isolated` (else 409); a tenant's first provider replaces the whole application set for it. */
export async function createAuthProvider(scope: Scope, input: CreateAuthProviderInput): Promise<AuthProviderView> {
  const type = typeOf(input.type);
  if (scope.tenantId !== null) await assertTenantExists(scope, scope.tenantId);
  const config = parseConfig(type, input.config, {}, scope.services.config.upstreams);
  const secrets = mergeSecrets(type, config, null, input.secrets, sealWith(scope));
  if (input.enabled === null) throw invalid('enabled', 'enabled may not be null');
  const name = input.name == null ? defaultProviderName(type, config) : displayName('name', input.name);
  const provider = await uniquely(type === 'oauth' ? 'config.provider' : 'type', `A ${type} provider of this scope`, () =>
    underTenancyConfig(scope, async ({ em, application }) => {
      if (scope.tenantId !== null) assertAuthIsolated(await application(), 'auth providers');
      await assertSlotFree(scope, em, type, config);
      const created = em.create(AuthProvider, {
        applicationId: scope.applicationId,
        id: newId(),
        tenantId: scope.tenantId,
        type,
        name,
        enabled: input.enabled ?? true,
        config,
        secrets,
        configuredBy: actingSubjects(scope.principal),
      });
      recordAudit(em, scope, { action: 'auth_provider.created', targetType: 'auth_provider', targetId: created.id, after: snapshot(created) });
      configurationChanged(em, scope.applicationId, scope.tenantId);
      return created;
    }),
  );
  return presentAuthProvider(provider, scope.tenantId === null ? null : 'customized');
}

/** Of the scope's own level: an inherited application provider is 403, any other 404, so a tenant is not told of ids it
 *  does not inherit. FOR UPDATE and refreshed: a second deletion is 404. */
async function ownProvider(scope: Scope, em: Scope['em'], providerId: string): Promise<AuthProvider> {
  const provider = await em.findOne(AuthProvider, { id: providerId }, HOLD_FOR_UPDATE);
  if (provider !== null && provider.tenantId === scope.tenantId) return provider;
  // Read on the transaction's connection: the embedded database answers one connection at a time.
  if (provider?.tenantId === null && scope.tenantId !== null) {
    const own = await em.find(AuthProvider, { tenantId: scope.tenantId });
    if (providersInForce(own, [provider]).providers.includes(provider)) {
      throw new GatehouseError('forbidden', "A tenant scope may not change the application's auth providers it inherits");
    }
  }
  throw notFound('Auth provider', 'providerId');
}

/** `config` merges by field (null restores a default); `secrets` merge (null removes one). The type never changes. */
export async function updateAuthProvider(scope: Scope, providerId: string, input: UpdateAuthProviderInput): Promise<AuthProviderView> {
  const { enabled } = input;
  if (enabled === null) throw invalid('enabled', 'enabled may not be null');
  if (input.name === null) throw invalid('name', 'name may not be null');
  // Left out changes nothing; a null one would too, yet be recorded as an update.
  if (input.config === null) throw invalid('config', 'config may not be null: a field of it set to null restores its default');
  if (input.secrets === null) throw invalid('secrets', 'secrets may not be null: a secret of it set to null removes it');
  const name = input.name === undefined ? undefined : displayName('name', input.name);
  // Read before the transaction, on the scope's connection: the embedded database answers one at a time.
  const leaves = enabled === false ? consoleSignInLock(scope, await scope.application()) : [];
  const provider = await uniquely('config.provider', 'An OAuth provider for this provider', () =>
    underTenancyConfig(scope, async ({ em, application }) => {
      const found = await ownProvider(scope, em, providerId);
      if (scope.tenantId !== null) assertAuthIsolated(await application(), 'auth providers');
      const before = snapshot(found);
      const stored = { config: found.config, secrets: found.secrets ?? null };
      if (input.config !== undefined) {
        const config = parseConfig(found.type, input.config, found.config, scope.services.config.upstreams);
        if (providerSlot(found.type, config) !== providerSlot(found.type, found.config)) await assertSlotFree(scope, em, found.type, config, found.id);
        // Another issuer's subjects are other people: a link kept would sign its `sub` in as the user of the old one's.
        if (found.type === 'oauth' && subjectIssuer(config) !== subjectIssuer(found.config)) await removeProviderLinks(em, scope, found.id, 'provider_changed');
        // The same for the NameIDs single logout ends sign-ins by: another IdP's LogoutRequest would end the first's users'.
        if (found.type === 'saml' && config['entityId'] !== found.config['entityId']) await forgetSamlSubjects(em, scope.applicationId, found.id);
        found.config = config;
      }
      found.secrets = mergeSecrets(found.type, found.config, stored, input.secrets, sealWith(scope));
      // Who now vouches for the identities it asserts (configurer.ts).
      if (input.config !== undefined || input.secrets !== undefined) found.configuredBy = actingSubjects(scope.principal);
      if (name !== undefined) found.name = name;
      if (enabled === false) await assertConsoleKeepsSignIn(scope, em, await application(), found, 'enabled');
      if (enabled !== undefined) found.enabled = enabled;
      // mergeSecrets has refused any `secrets` but an object of names.
      const after = withWrittenSecrets(snapshot(found), input.secrets);
      recordAudit(em, scope, { action: 'auth_provider.updated', targetType: 'auth_provider', targetId: found.id, before, after });
      configurationChanged(em, scope.applicationId, scope.tenantId);
      return found;
    }, leaves),
  );
  return presentAuthProvider(provider, scope.tenantId === null ? null : 'customized');
}

/** Allowed whatever `authIsolation` says: removing a tenant's providers clears the way back to `shared`. */
export async function deleteAuthProvider(scope: Scope, providerId: string): Promise<boolean> {
  // Read before the transaction, on the scope's connection: the embedded database answers one at a time.
  const application = await scope.application();
  await scope.transactional(async (em) => {
    const provider = await ownProvider(scope, em, providerId);
    await assertConsoleKeepsSignIn(scope, em, application, provider, 'providerId');
    recordAudit(em, scope, { action: 'auth_provider.deleted', targetType: 'auth_provider', targetId: provider.id, before: snapshot(provider) });
    em.remove(provider);
    configurationChanged(em, scope.applicationId, scope.tenantId);
  }, consoleSignInLock(scope, application));
  return true;
}

/** A saml provider's SP key as a rotation leaves it: certificates only, never a private key. */
export interface SamlSpKeyView {
  providerId: string;
  certificate: string;
  previousCertificateExpiresAt: Date | null;
  metadataUrl: string;
}

export interface RotateSamlSpKeyInput {
  gracePeriodSeconds?: number | null;
}

/** Certificates by fingerprint: nothing of a key leaves in a record. */
const auditedKeys = (keys: SamlSpCertificates) => ({
  certificateSha256: certificateFingerprint(keys.certificate),
  previousCertificateSha256: keys.previousCertificate === null ? null : certificateFingerprint(keys.previousCertificate),
  previousCertificateExpiresAt: keys.previousExpiresAt?.toISOString() ?? null,
});

/** Long enough for an IdP that re-reads the metadata now and then, or for an operator to register the new certificate. */
export const SP_KEY_GRACE_PERIOD_DEFAULT_SECONDS = 7 * 24 * 60 * 60;

/** Of the scope's own level (else 403 or 404), current at once; the replaced key still decrypts and is published for the
 *  grace period. Another type: 422, field `providerId`. */
export async function rotateSamlSpKey(scope: Scope, providerId: string, input: RotateSamlSpKeyInput | null | undefined): Promise<SamlSpKeyView> {
  const grace = gracePeriodSeconds(input, SP_KEY_GRACE_PERIOD_DEFAULT_SECONDS);
  return underTenancyConfig(scope, async ({ em, application }) => {
    // Locked: a deletion or another rotation of the provider waits for this one.
    const provider = await ownProvider(scope, em, providerId);
    if (scope.tenantId !== null) assertAuthIsolated(await application(), 'auth providers');
    if (provider.type !== 'saml') throw invalid('providerId', `A ${provider.type} provider has no SP key: only a saml provider's can be rotated`);
    const { before, after } = await rotateSpKeyPair(em, scope.services.storedSecrets, provider, grace, new Date());
    recordAudit(em, scope, {
      action: 'auth_provider.sp_key_rotated',
      targetType: 'auth_provider',
      targetId: provider.id,
      before: before === null ? null : auditedKeys(before),
      after: { ...auditedKeys(after), gracePeriodSeconds: grace },
    });
    return {
      providerId: provider.id,
      certificate: after.certificate,
      previousCertificateExpiresAt: after.previousExpiresAt,
      metadataUrl: samlUrls(scope.services.config.publicUrl, { id: provider.id, tenantId: provider.tenantId ?? null }).metadataUrl,
    };
  });
}
