import { isDeepStrictEqual } from 'node:util';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { OAuthClient } from '../../db/entities/index.ts';
import type { ClientAuthMethod } from '../../db/entities/oauth-client.entity.ts';
import type { SigningAlg } from '../../db/entities/signing-key.entity.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';
import { changed } from '../../events/changes.ts';
import { grantsEnded } from '../../events/invalidations.ts';
import { newId } from '../../ids.ts';
import { dashboardClientIdOf } from '../console/dashboard-client.ts';
import { requireCoveredEveryOperator } from '../console/operators.ts';
import { recordAudit } from '../audit/audit.ts';
import { auditedFieldsOf, auditedSnapshot } from '../audit/audited-fields.ts';
import { endClientGrants } from '../sessions/end-sessions.ts';
import { grantHoldersCutoffs } from '../sessions/policy-cutoffs.ts';
import { paginate, type Page, type PageArgs, type Row, scopedList } from '../pagination.ts';
import { targetTenant } from '../tenants/target-tenant.ts';
import { displayName } from '../validate.ts';
import { allowedOrigins } from './allowed-origins.ts';
import { initiateLoginUri, redirectUris, type SignInClientType } from './redirect-uris.ts';
import { gracePeriodSeconds, previousSecretValidUntil, rotateSecret, SECRET_STATE_FIELDS, setFirstSecret, type RotateSecretInput } from './secrets.ts';

/** `web` is confidential; `spa`, `native`, `device` public (PKCE). `m2m` rows are M2M credentials, never shown here. */
export type OAuthClientAuthMethod = Extract<ClientAuthMethod, 'none' | 'client_secret_basic' | 'client_secret_post'>;

export interface OAuthClientView {
  id: string;
  clientId: string;
  applicationId: string;
  tenantId: string | null;
  name: string;
  type: SignInClientType;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  allowedOrigins: string[];
  initiateLoginUri: string | null;
  tokenEndpointAuthMethod: OAuthClientAuthMethod;
  idTokenSigningAlg: SigningAlg;
  managementApi: boolean;
  hasSecret: boolean;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Only the answer of creation (null for public clients) and rotation. */
export interface OAuthClientWithSecretView extends OAuthClientView {
  clientSecret: string | null;
}

export interface CreateOAuthClientInput {
  name: string;
  type: SignInClientType;
  redirectUris?: string[] | null;
  postLogoutRedirectUris?: string[] | null;
  allowedOrigins?: string[] | null;
  initiateLoginUri?: string | null;
  tenantId?: string | null;
  tokenEndpointAuthMethod?: OAuthClientAuthMethod | null;
  idTokenSigningAlg?: SigningAlg | null;
  managementApi?: boolean | null;
}

export interface UpdateOAuthClientInput {
  name?: string | null;
  redirectUris?: string[] | null;
  postLogoutRedirectUris?: string[] | null;
  allowedOrigins?: string[] | null;
  initiateLoginUri?: string | null;
  tokenEndpointAuthMethod?: OAuthClientAuthMethod | null;
  idTokenSigningAlg?: SigningAlg | null;
  managementApi?: boolean | null;
}

/** As access tokens are. */
const DEFAULT_ID_TOKEN_SIGNING_ALG: SigningAlg = 'ES256';

/** An M2M credential's id reads as absent on these routes. */
const SIGN_IN_CLIENTS = { type: { $ne: 'm2m' } } as const;

export function presentOAuthClient(client: Row<OAuthClient>, now = new Date()): OAuthClientView {
  return {
    id: client.id,
    clientId: client.id,
    applicationId: client.applicationId,
    tenantId: client.tenantId ?? null,
    name: client.name,
    type: client.type as SignInClientType,
    redirectUris: [...client.redirectUris],
    postLogoutRedirectUris: [...client.postLogoutRedirectUris],
    allowedOrigins: [...client.allowedOrigins],
    initiateLoginUri: client.initiateLoginUri ?? null,
    tokenEndpointAuthMethod: client.authMethod as OAuthClientAuthMethod,
    idTokenSigningAlg: client.idTokenSigningAlg,
    managementApi: client.managementApi,
    hasSecret: client.secretEncrypted != null,
    previousSecretExpiresAt: previousSecretValidUntil(client, now),
    createdAt: client.createdAt,
    updatedAt: client.updatedAt,
  };
}

const field = auditedFieldsOf<OAuthClient>();
/** Never a secret or its ciphertext. */
const CLIENT_SNAPSHOT = auditedSnapshot([
  field.value('name'),
  field.value('type'),
  field.value('tenantId'),
  field.list('redirectUris'),
  field.list('postLogoutRedirectUris'),
  field.list('allowedOrigins'),
  field.value('initiateLoginUri'),
  field.value('authMethod', 'tokenEndpointAuthMethod'),
  field.value('idTokenSigningAlg'),
  field.value('managementApi'),
  ...SECRET_STATE_FIELDS,
]);
export const oauthClientSnapshot = CLIENT_SNAPSHOT.of;
export const oauthClientSnapshotSql = CLIENT_SNAPSHOT.sql;

/** A web client is confidential; the others are public and prove themselves with PKCE only. */
function authMethodFor(type: SignInClientType, requested: OAuthClientAuthMethod | null | undefined): OAuthClientAuthMethod {
  if (type === 'web') {
    if (requested === 'none') throw invalid('tokenEndpointAuthMethod', 'A web client authenticates with its secret: client_secret_basic or client_secret_post');
    return requested ?? 'client_secret_basic';
  }
  if (requested != null && requested !== 'none') {
    throw invalid('tokenEndpointAuthMethod', `A ${type} client is public (PKCE, no secret): its tokenEndpointAuthMethod is none`);
  }
  return 'none';
}

/**
 * A client whose users' tokens are for the management API acts with any signing-in user's permissions, so whoever
 * makes one, or changes one (its redirect URIs, its secret), must hold them all where it acts, and in a console what
 * its operators hold elsewhere too (requireCoveredEveryOperator).
 */
function requireManagementGrantor(scope: Scope): void {
  if (!scope.permissions.covers(['*'])) {
    throw new GatehouseError('forbidden', 'A client with managementApi acts with its users’ permissions: only credentials holding every permission (*) here may make or change one');
  }
}

/** What a PATCH may change, each field as the view and the input spell it. */
const UPDATABLE = [
  'name',
  'redirectUris',
  'postLogoutRedirectUris',
  'allowedOrigins',
  'initiateLoginUri',
  'tokenEndpointAuthMethod',
  'idTokenSigningAlg',
  'managementApi',
] as const satisfies readonly (keyof UpdateOAuthClientInput & keyof OAuthClientView)[];

/**
 * The console's dashboard client is the service's: the operators sign in to the dashboard with it, and without it (or
 * with its URIs, its management API access changed) none could until a restart makes another. Its name is how a start
 * tells it from the operators' own clients, so that changes neither. 422, as for the console's own deletion.
 */
async function isDashboardClient(scope: Scope, em: EntityManager, client: OAuthClient): Promise<boolean> {
  return (await dashboardClientIdOf(em, client.applicationId, scope.services.config.publicUrl)) === client.id;
}

const DASHBOARD_CLIENT = 'is the service’s own dashboard client, with which the operators sign in to the dashboard';

/** Every instance's OP forgets what it cached of the client (src/oidc/client-cache.ts). */
export function clientChanged(em: EntityManager, clientId: string): void {
  changed(em, { kind: 'oauth_client', id: clientId });
}

/** `kind`: the sign-in clients' or the M2M credentials' condition. Else 404 naming the resource. */
export async function findClientOfKind(
  em: EntityManager,
  kind: object,
  id: string,
  missing: { resource: string; field: string },
  lock = false,
): Promise<OAuthClient> {
  const client = await em.findOne(OAuthClient, { id, ...kind }, lock ? HOLD_FOR_UPDATE : {});
  if (client === null) throw notFound(missing.resource, missing.field);
  return client;
}

export interface NewClientRow {
  readonly tenantId: string | null;
  readonly type: OAuthClient['type'];
  readonly name: string;
  readonly authMethod: ClientAuthMethod;
  readonly idTokenSigningAlg?: SigningAlg;
  readonly redirectUris?: string[];
  readonly postLogoutRedirectUris?: string[];
  readonly allowedOrigins?: string[];
  readonly initiateLoginUri?: string | null;
  readonly jwks?: OAuthClient['jwks'];
  readonly permissions?: string[];
  readonly managementApi?: boolean;
  /** Returned in clear: the one time it is shown. */
  readonly withSecret: boolean;
}

export function createClientRow(em: EntityManager, scope: Scope, row: NewClientRow): { client: OAuthClient; clientSecret: string | null } {
  const { withSecret, ...fields } = row;
  const client = em.create(OAuthClient, {
    applicationId: scope.applicationId,
    id: newId(),
    redirectUris: [],
    postLogoutRedirectUris: [],
    allowedOrigins: [],
    initiateLoginUri: null,
    jwks: null,
    permissions: [],
    ...fields,
    secretEncrypted: null,
    previousSecretEncrypted: null,
    previousSecretExpiresAt: null,
    revokedAt: null,
  });
  return { client, clientSecret: withSecret ? setFirstSecret(scope.services.clientSecrets, client) : null };
}

const findClient = (em: EntityManager, clientId: string, lock = false) =>
  findClientOfKind(em, SIGN_IN_CLIENTS, clientId, { resource: 'OAuth client', field: 'clientId' }, lock);

export async function listOAuthClients(scope: Scope, args: PageArgs): Promise<Page<OAuthClientView>> {
  // In a tenant scope the `tenant` filter keeps only that tenant's clients.
  const list = scopedList(scope, 'oauth_clients');
  const page = await paginate(scope.em, OAuthClient, SIGN_IN_CLIENTS, args, scope.services.cursors, list);
  const now = new Date();
  return { data: page.data.map((client) => presentOAuthClient(client, now)), next: page.next };
}

export async function getOAuthClient(scope: Scope, clientId: string): Promise<OAuthClientView> {
  return presentOAuthClient(await findClient(scope.em, clientId));
}

/** A web client's secret is in the answer only. */
export async function createOAuthClient(scope: Scope, input: CreateOAuthClientInput): Promise<OAuthClientWithSecretView> {
  const name = displayName('name', input.name);
  const { type } = input;
  const tokenEndpointAuthMethod = authMethodFor(type, input.tokenEndpointAuthMethod);
  const redirects = redirectUris('redirectUris', type, input.redirectUris ?? [], true);
  const postLogout = redirectUris('postLogoutRedirectUris', type, input.postLogoutRedirectUris ?? [], false);
  const origins = allowedOrigins('allowedOrigins', type, input.allowedOrigins ?? []);
  const loginUri = initiateLoginUri('initiateLoginUri', type, input.initiateLoginUri ?? null);
  const tenantId = await targetTenant(scope, input.tenantId);
  const managementApi = input.managementApi ?? false;
  if (managementApi) requireManagementGrantor(scope);
  const { client, clientSecret } = await scope.transactional(async (em) => {
    if (managementApi) await requireCoveredEveryOperator(scope, em);
    const { client, clientSecret } = createClientRow(em, scope, {
      tenantId,
      type,
      name,
      redirectUris: redirects,
      postLogoutRedirectUris: postLogout,
      allowedOrigins: origins,
      initiateLoginUri: loginUri,
      authMethod: tokenEndpointAuthMethod,
      idTokenSigningAlg: input.idTokenSigningAlg ?? DEFAULT_ID_TOKEN_SIGNING_ALG,
      managementApi,
      withSecret: type === 'web',
    });
    recordAudit(em, scope, { action: 'oauth_client.created', targetType: 'oauth_client', targetId: client.id, tenantId, after: oauthClientSnapshot(client) });
    return { client, clientSecret };
  });
  // Presented after the commit, which stamps createdAt and updatedAt.
  return { ...presentOAuthClient(client), clientSecret };
}

/** The type and tenant never change. Every OP forgets the client at the commit, so its next ID token is as chosen. */
export async function updateOAuthClient(scope: Scope, clientId: string, input: UpdateOAuthClientInput): Promise<OAuthClientView> {
  const updated = await scope.transactional(async (em) => {
    const client = await findClient(em, clientId, true);
    const type = client.type as SignInClientType;
    if (client.managementApi || input.managementApi === true) {
      requireManagementGrantor(scope);
      await requireCoveredEveryOperator(scope, em);
    }
    const before = oauthClientSnapshot(client);
    const shown = presentOAuthClient(client);
    if (input.name !== undefined) {
      if (input.name === null) throw invalid('name', 'name may not be null');
      client.name = displayName('name', input.name);
    }
    if (input.redirectUris !== undefined) {
      if (input.redirectUris === null) throw invalid('redirectUris', 'redirectUris may not be null');
      client.redirectUris = redirectUris('redirectUris', type, input.redirectUris, true);
    }
    if (input.postLogoutRedirectUris !== undefined) {
      client.postLogoutRedirectUris = redirectUris('postLogoutRedirectUris', type, input.postLogoutRedirectUris ?? [], false);
    }
    if (input.allowedOrigins !== undefined) {
      if (input.allowedOrigins === null) throw invalid('allowedOrigins', 'allowedOrigins may not be null: [] removes them all');
      client.allowedOrigins = allowedOrigins('allowedOrigins', type, input.allowedOrigins);
    }
    if (input.initiateLoginUri !== undefined) client.initiateLoginUri = initiateLoginUri('initiateLoginUri', type, input.initiateLoginUri);
    if (input.tokenEndpointAuthMethod !== undefined) {
      if (input.tokenEndpointAuthMethod === null) throw invalid('tokenEndpointAuthMethod', 'tokenEndpointAuthMethod may not be null');
      client.authMethod = authMethodFor(type, input.tokenEndpointAuthMethod);
    }
    if (input.idTokenSigningAlg !== undefined) {
      if (input.idTokenSigningAlg === null) throw invalid('idTokenSigningAlg', 'idTokenSigningAlg may not be null');
      client.idTokenSigningAlg = input.idTokenSigningAlg;
    }
    if (input.managementApi !== undefined) {
      if (input.managementApi === null) throw invalid('managementApi', 'managementApi may not be null');
      client.managementApi = input.managementApi;
    }
    const after = presentOAuthClient(client);
    const changedField = UPDATABLE.find((key) => !isDeepStrictEqual(shown[key], after[key]));
    if (changedField !== undefined && (await isDashboardClient(scope, em, client))) {
      throw invalid(changedField, `This client ${DASHBOARD_CLIENT}: its ${changedField} cannot change`);
    }
    recordAudit(em, scope, { action: 'oauth_client.updated', targetType: 'oauth_client', targetId: client.id, tenantId: client.tenantId ?? null, before, after: oauthClientSnapshot(client) });
    clientChanged(em, client.id);
    return client;
  });
  return presentOAuthClient(updated);
}

/**
 * From the commit the OP knows no such client_id; its grants end with it, with their tokens and their sign-ins (each
 * recorded, reason `client_deleted`).
 */
export async function deleteOAuthClient(scope: Scope, clientId: string): Promise<boolean> {
  const cutoffs = await grantHoldersCutoffs(scope, scope.em, new Date());
  await scope.transactional(async (em) => {
    const client = await findClient(em, clientId, true);
    if (await isDashboardClient(scope, em, client)) throw invalid('clientId', `This client ${DASHBOARD_CLIENT}: it cannot be deleted`);
    const ended = await endClientGrants(em, scope, client.id, cutoffs);
    recordAudit(em, scope, { action: 'oauth_client.deleted', targetType: 'oauth_client', targetId: client.id, tenantId: client.tenantId ?? null, before: oauthClientSnapshot(client) });
    em.remove(client);
    clientChanged(em, client.id);
    changed(em, ...grantsEnded(ended));
  });
  return true;
}

/** The replaced secret stays valid for the grace period. Public clients have none (422, field `clientId`). */
export async function rotateOAuthClientSecret(scope: Scope, clientId: string, input: RotateSecretInput | null | undefined): Promise<OAuthClientWithSecretView> {
  const grace = gracePeriodSeconds(input);
  const rotated = await scope.transactional(async (em) => {
    // Locked: two concurrent rotations must not both hand out a secret, only one of which works.
    const client = await findClient(em, clientId, true);
    if (client.type !== 'web') throw invalid('clientId', `A ${client.type} client is public: it has no secret to rotate`);
    if (client.managementApi) {
      requireManagementGrantor(scope);
      await requireCoveredEveryOperator(scope, em);
    }
    const now = new Date();
    const before = oauthClientSnapshot(client, now);
    const clientSecret = rotateSecret(scope.services.clientSecrets, client, grace, now);
    recordAudit(em, scope, { action: 'oauth_client.secret_rotated', targetType: 'oauth_client', targetId: client.id, tenantId: client.tenantId ?? null, before, after: { ...oauthClientSnapshot(client, now), gracePeriodSeconds: grace } });
    clientChanged(em, client.id);
    return { client, clientSecret };
  });
  return { ...presentOAuthClient(rotated.client), clientSecret: rotated.clientSecret };
}
