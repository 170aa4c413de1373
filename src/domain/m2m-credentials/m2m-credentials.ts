import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { OAuthClient } from '../../db/entities/index.ts';
import type { ClientAuthMethod } from '../../db/entities/oauth-client.entity.ts';
import { invalid } from '../../errors.ts';
import { recordAudit } from '../audit/audit.ts';
import { auditedFieldsOf, auditedSnapshot } from '../audit/audited-fields.ts';
import { permissionGrants, requireCovered, requireCoveredCredential, withCallerHoldings } from '../grants.ts';
import { clientChanged, createClientRow, findClientOfKind } from '../oauth-clients/oauth-clients.ts';
import { clearSecrets, gracePeriodSeconds, previousSecretValidUntil, rotateSecret, SECRET_STATE_FIELDS, type RotateSecretInput } from '../oauth-clients/secrets.ts';
import { paginate, type Page, type PageArgs, type Row, scopedList } from '../pagination.ts';
import { targetTenant } from '../tenants/target-tenant.ts';
import { displayName } from '../validate.ts';
import { publicJwks, type PublicJwks } from './jwks.ts';

/** `oauth_client` rows of type `m2m`; their tokens carry `permissions` (and `tenant_id`) and work as Bearer tokens on the
 *  management API. */
export type M2MAuthMethod = Exclude<ClientAuthMethod, 'none'>;

const SECRET_METHODS: ReadonlySet<M2MAuthMethod> = new Set(['client_secret_basic', 'client_secret_post']);

/** No secret, no ciphertext; the JWKS holds public keys only. */
export interface M2MCredentialView {
  id: string;
  clientId: string;
  applicationId: string;
  tenantId: string | null;
  name: string;
  permissions: string[];
  authMethod: M2MAuthMethod;
  hasSecret: boolean;
  previousSecretExpiresAt: Date | null;
  jwks: PublicJwks | null;
  revokedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Only the answer of creation (secret methods) and rotation. */
export interface M2MCredentialWithSecretView extends M2MCredentialView {
  clientSecret: string | null;
}

export interface CreateM2MCredentialInput {
  name: string;
  permissions: string[];
  tenantId?: string | null;
  authMethod?: M2MAuthMethod | null;
  jwks?: unknown;
}

const M2M = { type: 'm2m' } as const;

export function presentM2MCredential(client: Row<OAuthClient>, now = new Date()): M2MCredentialView {
  return {
    id: client.id,
    clientId: client.id,
    applicationId: client.applicationId,
    tenantId: client.tenantId ?? null,
    name: client.name,
    permissions: [...client.permissions],
    authMethod: client.authMethod as M2MAuthMethod,
    hasSecret: client.secretEncrypted != null,
    previousSecretExpiresAt: previousSecretValidUntil(client, now),
    jwks: client.jwks ?? null,
    revokedAt: client.revokedAt ?? null,
    createdAt: client.createdAt,
    updatedAt: client.updatedAt,
  };
}

const field = auditedFieldsOf<OAuthClient>();
/** Never a secret; of the JWKS, only the key ids. */
const CREDENTIAL_SNAPSHOT = auditedSnapshot([
  field.value('name'),
  field.value('tenantId'),
  field.list('permissions'),
  field.value('authMethod'),
  ...SECRET_STATE_FIELDS,
  field.derived(
    'jwksKids',
    (client) => client.jwks?.keys.map((key) => key['kid']) ?? null,
    (sqlOf) =>
      `case when ${sqlOf('jwks')} is not null then coalesce(
         (select jsonb_agg(jwk.value -> 'kid' order by jwk.ordinality) from jsonb_array_elements(${sqlOf('jwks')} -> 'keys') with ordinality as jwk),
         '[]'::jsonb) end`,
  ),
  field.instant('revokedAt'),
]);
const snapshot = CREDENTIAL_SNAPSHOT.of;
export const m2mCredentialSnapshotSql = CREDENTIAL_SNAPSHOT.sql;

/** What rotating it or replacing its keys hands out (requireCoveredCredential). */
const held = (client: OAuthClient) => ({ type: 'm2m_credential' as const, id: client.id, tenantId: client.tenantId ?? null, permissions: client.permissions });

const findCredential = (em: EntityManager, credentialId: string, lock = false) =>
  findClientOfKind(em, M2M, credentialId, { resource: 'M2M credential', field: 'credentialId' }, lock);

export async function listM2MCredentials(scope: Scope, args: PageArgs): Promise<Page<M2MCredentialView>> {
  // In a tenant scope the `tenant` filter keeps only that tenant's credentials.
  const list = scopedList(scope, 'm2m_credentials');
  const page = await paginate(scope.em, OAuthClient, M2M, args, scope.services.cursors, list);
  const now = new Date();
  return { data: page.data.map((client) => presentM2MCredential(client, now)), next: page.next };
}

export async function getM2MCredential(scope: Scope, credentialId: string): Promise<M2MCredentialView> {
  return presentM2MCredential(await findCredential(scope.em, credentialId));
}

/** A secret method's secret is in the answer only; private_key_jwt needs the JWKS at once. */
export async function createM2MCredential(scope: Scope, input: CreateM2MCredentialInput): Promise<M2MCredentialWithSecretView> {
  const name = displayName('name', input.name);
  const permissions = permissionGrants(input.permissions);
  requireCovered(scope, permissions);
  const authMethod = input.authMethod ?? 'client_secret_basic';
  let jwks: PublicJwks | null = null;
  if (authMethod === 'private_key_jwt') {
    if (input.jwks == null) throw invalid('jwks', 'private_key_jwt needs a JWKS of the public keys that sign the client assertions');
    jwks = publicJwks('jwks', input.jwks);
  } else if (input.jwks != null) {
    throw invalid('jwks', `A ${authMethod} credential authenticates with its secret: jwks is only for private_key_jwt`);
  }
  const tenantId = await targetTenant(scope, input.tenantId);
  const { client, clientSecret } = await scope.transactional(async (em) => {
    const { client, clientSecret } = createClientRow(em, scope, {
      tenantId,
      type: 'm2m',
      name,
      authMethod,
      jwks,
      permissions,
      withSecret: SECRET_METHODS.has(authMethod),
    });
    recordAudit(em, scope, { action: 'm2m_credential.created', targetType: 'm2m_credential', targetId: client.id, tenantId, after: snapshot(client) });
    return { client, clientSecret };
  });
  return { ...presentM2MCredential(client), clientSecret };
}

/** Secrets erased, no more tokens; it stays listed. Tokens already issued are refused at once here (a Bearer's credential is
 *  checked on every request); an API verifying them by signature alone accepts them until they expire. */
export async function revokeM2MCredential(scope: Scope, credentialId: string): Promise<M2MCredentialView> {
  const revoked = await scope.transactional(async (em) => {
    const client = await findCredential(em, credentialId, true);
    if (client.revokedAt != null) return client;
    const before = snapshot(client);
    client.revokedAt = new Date();
    clearSecrets(client);
    recordAudit(em, scope, { action: 'm2m_credential.revoked', targetType: 'm2m_credential', targetId: client.id, tenantId: client.tenantId ?? null, before, after: snapshot(client) });
    clientChanged(em, client.id);
    return client;
  });
  return presentM2MCredential(revoked);
}

/** The replaced secret stays valid for the grace period. private_key_jwt (keys change with PUT …/jwks) or revoked: 422. */
export async function rotateM2MCredential(scope: Scope, credentialId: string, input: RotateSecretInput | null | undefined): Promise<M2MCredentialWithSecretView> {
  const grace = gracePeriodSeconds(input);
  const rotated = await withCallerHoldings(scope, { type: 'm2m_credential', id: credentialId }, (callers) => scope.transactional(async (em) => {
    // Locked: two concurrent rotations must not both hand out a secret, only one of which works.
    const client = await findCredential(em, credentialId, true);
    if (client.revokedAt != null) throw invalid('credentialId', 'A revoked credential cannot be rotated');
    if (!SECRET_METHODS.has(client.authMethod as M2MAuthMethod)) {
      throw invalid('credentialId', 'A private_key_jwt credential has no secret: replace its keys with PUT …/jwks');
    }
    await requireCoveredCredential(scope, em, held(client), callers);
    const now = new Date();
    const before = snapshot(client, now);
    const clientSecret = rotateSecret(scope.services.clientSecrets, client, grace, now);
    recordAudit(em, scope, { action: 'm2m_credential.rotated', targetType: 'm2m_credential', targetId: client.id, tenantId: client.tenantId ?? null, before, after: { ...snapshot(client, now), gracePeriodSeconds: grace } });
    clientChanged(em, client.id);
    return { client, clientSecret };
  }));
  return { ...presentM2MCredential(rotated.client), clientSecret: rotated.clientSecret };
}

/** The whole set: to roll a key without downtime, upload old and new together, then the new alone. Secret-method and
 *  revoked credentials: 422. */
export async function putM2MCredentialJwks(scope: Scope, credentialId: string, input: unknown): Promise<M2MCredentialView> {
  const jwks = publicJwks('', input);
  const updated = await withCallerHoldings(scope, { type: 'm2m_credential', id: credentialId }, (callers) => scope.transactional(async (em) => {
    const client = await findCredential(em, credentialId, true);
    if (client.revokedAt != null) throw invalid('credentialId', 'A revoked credential cannot be changed');
    if (client.authMethod !== 'private_key_jwt') {
      throw invalid('credentialId', `A ${client.authMethod} credential authenticates with its secret: a JWKS is only for private_key_jwt`);
    }
    // The keys authenticate as this credential: the same rule as handing out a secret.
    await requireCoveredCredential(scope, em, held(client), callers);
    const before = snapshot(client);
    client.jwks = jwks;
    recordAudit(em, scope, { action: 'm2m_credential.jwks_updated', targetType: 'm2m_credential', targetId: client.id, tenantId: client.tenantId ?? null, before, after: snapshot(client) });
    clientChanged(em, client.id);
    return client;
  }));
  return presentM2MCredential(updated);
}
