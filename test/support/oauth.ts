import { generateClientSecret } from '../../src/auth/client-secrets.ts';
import { OAuthClient, type ClientAuthMethod, type OAuthClientType } from '../../src/db/entities/oauth-client.entity.ts';
import { newId } from '../../src/ids.ts';
import * as oidc from 'openid-client';
import type { TestApp } from './app.ts';

export interface TestClientOptions {
  type?: OAuthClientType;
  authMethod?: ClientAuthMethod;
  applicationId?: string;
  tenantId?: string | null;
  permissions?: string[];
  redirectUris?: string[];
  /** Public keys for private_key_jwt. */
  jwks?: { keys: Record<string, unknown>[] };
  /** A previous secret still inside (or past) its rotation grace period. */
  previousSecret?: { secret: string; expiresAt: Date };
  revoked?: boolean;
}

export interface TestClient {
  clientId: string;
  /** The secret in clear, for the secret methods. */
  clientSecret: string | undefined;
}

/**
 * An OAuth client row written straight through the entity, as the management API (another engineer's) will:
 * the OP's tests do not depend on those routes. Secrets are encrypted exactly as the service stores them.
 */
export async function createTestClient(app: TestApp, options: TestClientOptions = {}): Promise<TestClient> {
  const { clientSecrets, orm } = app.gatehouse.services;
  const type = options.type ?? 'm2m';
  const authMethod = options.authMethod ?? 'client_secret_basic';
  const usesSecret = authMethod === 'client_secret_basic' || authMethod === 'client_secret_post';
  const clientSecret = usesSecret ? generateClientSecret() : undefined;
  const em = orm.em.fork();
  const client = em.create(OAuthClient, {
    applicationId: options.applicationId ?? app.root.applicationId,
    id: newId(),
    tenantId: options.tenantId ?? null,
    type,
    name: `test ${type} client`,
    redirectUris: options.redirectUris ?? [],
    postLogoutRedirectUris: [],
    authMethod,
    secretEncrypted: clientSecret === undefined ? null : clientSecrets.encrypt(clientSecret),
    previousSecretEncrypted: options.previousSecret === undefined ? null : clientSecrets.encrypt(options.previousSecret.secret),
    previousSecretExpiresAt: options.previousSecret?.expiresAt ?? null,
    jwks: options.jwks ?? null,
    permissions: options.permissions ?? [],
    revokedAt: options.revoked === true ? new Date() : null,
  });
  await em.flush();
  return { clientId: client.id, clientSecret };
}

/** openid-client's view of the service: discovery against the test app's (reachable) issuer. */
export async function discover(app: TestApp, clientId: string, auth: oidc.ClientAuth, metadata: Partial<oidc.ClientMetadata> = {}) {
  return oidc.discovery(new URL(app.gatehouse.services.config.publicUrl), clientId, metadata, auth, {
    execute: [oidc.allowInsecureRequests],
  });
}

/** The JWT's parts, unverified (the tests verify through the service's own endpoints). */
export function decodeJwt(token: string): { header: Record<string, any>; payload: Record<string, any> } {
  const [header, payload] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
  return { header, payload };
}

/** A form POST, as an RP library would send it (for the refusals openid-client will not send). */
export async function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await response.text();
  let body: any = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
  return { status: response.status, body, headers: response.headers };
}

export const basicAuth = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
