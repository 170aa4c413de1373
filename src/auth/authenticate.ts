import type { MikroORM } from '@mikro-orm/postgresql';
import { effectivePermissions, type RoleSubject } from '../domain/authorization/held-roles.ts';
import { operatorPlace } from '../domain/console/console.ts';
import type { SurfaceRouter } from '../domain/domains/surfaces.ts';
import { GatehouseError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { readWorkingKey, type ApiKeyRecord } from '../domain/api-keys/working-key.ts';
import { apiKeyOwners, type ApiKeyCache } from './api-key-cache.ts';
import { hashApiKeySecret, hashMatches } from './api-key-secret.ts';
import { isLive, liveSubjectOwners, subjectKind, type BearerSubject } from './bearer-subject.ts';
import type { PermissionSet } from './permissions.ts';
import type { Principal } from './principal.ts';
import type { SigningKeyStore } from './signing-keys.ts';

export interface PresentedCredentials {
  apiKey: string | undefined;
  bearer: string | undefined;
  /** The application an operator's token acts on (src/domain/console/). */
  application?: string | undefined;
}

/** RFC 6750 2.1: `Bearer`, spaces, a b64token. */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

const unauthenticated = (message: string) => new GatehouseError('unauthenticated', message);

/** So that the challenge says `invalid_token` only when it was the token (RFC 6750 3.1): a client told so refreshes it. */
export class BearerTokenRefused extends GatehouseError {
  constructor(message: string) {
    super('unauthenticated', message);
  }
}

/**
 * Refused, not ignored: beside an API key a Bearer token narrows what the key may do, and dropping a malformed one
 * would leave the key's full permissions.
 */
export function readCredentials(headers: Record<string, string | string[] | undefined>): PresentedCredentials {
  const apiKey = headers['x-api-key'];
  const authorization = headers['authorization'];
  let bearer: string | undefined;
  if (authorization !== undefined) {
    bearer = typeof authorization === 'string' ? BEARER.exec(authorization)?.[1] : undefined;
    if (bearer === undefined) throw new BearerTokenRefused('The Authorization header must be a Bearer token: "Bearer <token>"');
  }
  // Sent empty it is refused as well: dropped, a Bearer token beside it would act without the key's scope.
  if (apiKey === '') throw unauthenticated('The X-API-Key header is empty');
  const application = headers['x-gatehouse-application'];
  return {
    apiKey: typeof apiKey === 'string' ? apiKey : undefined,
    bearer,
    application: typeof application === 'string' ? application : undefined,
  };
}

export interface CredentialStore {
  readonly orm: MikroORM;
  readonly cache: ApiKeyCache;
}

/** The caches lag the database by Redis's delivery. */
export type CredentialSource = 'cache' | 'database';

async function authenticateApiKey(store: CredentialStore, secret: string): Promise<ApiKeyRecord> {
  const secretHash = hashApiKeySecret(secret);
  // This instance's cache forgets a key when the key or its user changes.
  const key = await store.cache.find(secretHash, () => readWorkingKey(store.orm, secretHash));
  if (key === undefined || !hashMatches(secretHash, key.secret_hash)) throw unauthenticated('Invalid API key');
  return key;
}

/**
 * The subject is checked on every request (bearer-subject.ts): the signature alone would let a revoked credential's,
 * a suspended user's or a deleted application's tokens act until they expire.
 */
async function authenticateBearer(
  store: CredentialStore,
  keys: SigningKeyStore,
  token: string,
  surfaces: SurfaceRouter | undefined,
): Promise<BearerSubject> {
  let payload;
  try {
    payload = await keys.verifyAccessToken(token, surfaces === undefined ? 'service' : 'caller-checks');
  } catch {
    throw new BearerTokenRefused('Invalid access token');
  }
  // A `permissions` claim is not read: what the subject may do is what it holds now (Principal.permissionsIn).
  const { iss, sub, client_id: clientId, app_id: applicationId, tenant_id: tenantId, grant_id: grantId } = payload;
  if (typeof sub !== 'string' || !isUuid(sub) || typeof applicationId !== 'string' || !isUuid(applicationId)) {
    throw new BearerTokenRefused('Access token is not for the management API');
  }
  if (tenantId !== undefined && (typeof tenantId !== 'string' || !isUuid(tenantId))) {
    throw new BearerTokenRefused('Access token has an invalid tenant_id');
  }
  if (surfaces !== undefined && (typeof iss !== 'string' || !(await surfaces.issuerServesToken(iss, { applicationId, tenantId: tenantId ?? null })))) {
    throw new BearerTokenRefused('The access token’s issuer does not serve its application or tenant');
  }
  const subject = bearerSubject(sub, applicationId, tenantId ?? null, clientId, grantId);
  if (!(await isLive(store.orm, store.cache.bearerSubjects, subject))) {
    throw new BearerTokenRefused('The access token’s credential, user or application is no longer valid');
  }
  return subject;
}

/** A user's token without its client and grant is no token of ours. */
function bearerSubject(sub: string, applicationId: string, tenantId: string | null, clientId: unknown, grantId: unknown): BearerSubject {
  if (subjectKind(sub, clientId) === 'm2m_credential') return { kind: 'm2m_credential', subject: sub, applicationId, tenantId };
  if (typeof clientId !== 'string' || !isUuid(clientId) || typeof grantId !== 'string' || grantId === '') {
    throw new BearerTokenRefused('Access token is not for the management API');
  }
  return { kind: 'user', subject: sub, applicationId, tenantId, clientId, grantId, managementApi: true };
}

/** At most once per tenant in a request (the gate and the scope ask for the same one). */
function permissionsOf(store: CredentialStore, applicationId: string, subjects: readonly RoleSubject[]): Principal['permissionsIn'] {
  const asked = new Map<string, Promise<PermissionSet>>();
  return (tenantId) => {
    let permissions = asked.get(tenantId ?? '');
    if (permissions === undefined) {
      permissions = effectivePermissions(store.cache.heldGrants, store.orm.em.getConnection(), applicationId, tenantId, subjects);
      asked.set(tenantId ?? '', permissions);
    }
    return permissions;
  };
}

/**
 * Spec, Authentication: a Bearer token beside an API key must be for the same application, adds its tenant and narrows
 * permissions to its subject's. What either may do depends on the tenant acted in (Principal.permissionsIn).
 */
export async function authenticate(
  store: CredentialStore,
  keys: SigningKeyStore,
  credentials: PresentedCredentials,
  /** Without them, the service's issuer only. */
  surfaces?: SurfaceRouter,
): Promise<Principal> {
  const principal = await principalOf(store, keys, credentials, surfaces);
  return { ...principal, organizationDeactivated: await store.cache.organizations.deactivated(store.orm, principal.applicationId) };
}

/** Acting as the `operator` subject: what its role assignments give, nothing of what the user holds in the console. */
async function operatorPrincipal(store: CredentialStore, bearer: BearerSubject | undefined, named: string): Promise<Omit<Principal, 'organizationDeactivated'>> {
  if (bearer === undefined || bearer.kind !== 'user') {
    throw new GatehouseError('forbidden', 'X-Gatehouse-Application is for an operator’s Bearer token alone, without an API key');
  }
  // Ids are taken in either case; the paths, caches and invalidations know the canonical one.
  const applicationId = named.toLowerCase();
  const place = isUuid(applicationId) ? await operatorPlace(store.orm.em.getConnection(), bearer.applicationId, bearer.subject, applicationId) : 'elsewhere';
  if (place === 'elsewhere') throw new GatehouseError('forbidden', 'The access token’s user is no operator of that application’s organization');
  // Their management ends with their last role there: a connection filed under the application's `roles` is asked again.
  if (place === 'unassigned') throw new GatehouseError('forbidden', 'The access token’s user holds no role in that application as an operator');
  const subjects: RoleSubject[] = [{ type: 'operator', id: bearer.subject }];
  return {
    credentialId: `operator:${bearer.subject}`,
    applicationId,
    tenantId: null,
    subjects,
    permissionsIn: permissionsOf(store, applicationId, subjects),
    actor: { type: 'operator', id: bearer.subject },
    apiKeyId: null,
    apiKeyExpiresAt: null,
    credentialRecords: [liveSubjectOwners(bearer), { application: applicationId, roles: applicationId }],
  };
}

/** Before their organization's status is asked. */
async function principalOf(
  store: CredentialStore,
  keys: SigningKeyStore,
  credentials: PresentedCredentials,
  surfaces?: SurfaceRouter,
): Promise<Omit<Principal, 'organizationDeactivated'>> {
  const [apiKey, bearer] = await Promise.all([
    credentials.apiKey === undefined ? undefined : authenticateApiKey(store, credentials.apiKey),
    credentials.bearer === undefined ? undefined : authenticateBearer(store, keys, credentials.bearer, surfaces),
  ]);
  if (apiKey === undefined && bearer === undefined) throw unauthenticated('Missing credentials: send X-API-Key or a Bearer token');
  if (credentials.application !== undefined) return operatorPrincipal(store, apiKey === undefined ? bearer : undefined, credentials.application);
  if (apiKey !== undefined && bearer !== undefined) {
    if (bearer.applicationId !== apiKey.application_id) throw new BearerTokenRefused('The access token is for another application');
    if (apiKey.tenant_id !== null && bearer.tenantId !== null && apiKey.tenant_id !== bearer.tenantId) {
      throw new GatehouseError('forbidden', 'The access token is for a tenant other than the API key’s');
    }
    const subjects: RoleSubject[] = [{ type: 'api_key', id: apiKey.id }, { type: bearer.kind, id: bearer.subject }];
    return {
      credentialId: `api_key:${apiKey.id}`,
      applicationId: apiKey.application_id,
      tenantId: bearer.tenantId ?? apiKey.tenant_id,
      subjects,
      permissionsIn: permissionsOf(store, apiKey.application_id, subjects),
      actor: { type: bearer.kind, id: bearer.subject },
      apiKeyId: apiKey.id,
      apiKeyExpiresAt: apiKey.expires_at,
      credentialRecords: [apiKeyOwners(apiKey), liveSubjectOwners(bearer)],
    };
  }
  if (apiKey !== undefined) {
    const subjects: RoleSubject[] = [{ type: 'api_key', id: apiKey.id }];
    return {
      credentialId: `api_key:${apiKey.id}`,
      applicationId: apiKey.application_id,
      tenantId: apiKey.tenant_id,
      subjects,
      permissionsIn: permissionsOf(store, apiKey.application_id, subjects),
      actor: { type: 'api_key', id: apiKey.id },
      apiKeyId: apiKey.id,
      apiKeyExpiresAt: apiKey.expires_at,
      credentialRecords: [apiKeyOwners(apiKey)],
    };
  }
  const claims = bearer as BearerSubject;
  const subjects: RoleSubject[] = [{ type: claims.kind, id: claims.subject }];
  return {
    credentialId: `user:${claims.applicationId}:${claims.subject}`,
    applicationId: claims.applicationId,
    tenantId: claims.tenantId,
    subjects,
    permissionsIn: permissionsOf(store, claims.applicationId, subjects),
    actor: { type: claims.kind, id: claims.subject },
    apiKeyId: null,
    apiKeyExpiresAt: null,
    credentialRecords: [liveSubjectOwners(claims)],
  };
}
