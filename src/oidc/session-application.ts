import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { unverifiedAudience } from '../auth/jwt.ts';
import { isUuid } from '../ids.ts';
import type { UnbrandedCopyKey } from '../domain/branding/copy/unbranded.ts';
import { servedClientData } from './clients.ts';
import { OIDC_PATHS } from './configuration.ts';

/**
 * oidc-provider keeps one account per session cookie: on a surface serving every application, a sign-in to another
 * would sign the user out of the first and revoke its grants. So each application's session has its own cookie, chosen
 * from the request's client; the device pages keep the plain one (the client is known only once the code is typed).
 */
const current = new AsyncLocalStorage<string | undefined>();

const APPLICATION_PARAMETER = 'app';

export function withSessionOf<T>(applicationId: string | undefined, handle: () => Promise<T>): Promise<T> {
  return current.run(applicationId, handle);
}

/** False for the plain cookie: the device pages', and a custom domain's only one. */
export const readsApplicationSession = (): boolean => current.getStore() !== undefined;

/** The device pages' session, read as the OP reads one, leaving the request's own session untouched. */
export function devicePagesSession(provider: Provider, req: IncomingMessage, res: ServerResponse) {
  return withSessionOf(undefined, () => provider.Session.get({ req, res } as unknown as KoaContextWithOIDC));
}

export function sessionCookieName(base: string): string {
  const applicationId = current.getStore();
  return applicationId === undefined ? base : `${base}.${applicationId}`;
}

export function confirmationUrl(url: string): string {
  const applicationId = current.getStore();
  return applicationId === undefined ? url : `${url}?${APPLICATION_PARAMETER}=${applicationId}`;
}

function resumedInteraction(path: string): string | undefined {
  const prefix = `${OIDC_PATHS.authorization}/`;
  const uid = path.startsWith(prefix) ? path.slice(prefix.length) : '';
  return /^[\w-]+$/.test(uid) ? uid : undefined;
}

/** Read through the surface's OP, so an unknown client or interaction names nothing and the OP refuses it as it would. */
export async function sessionApplicationOf(provider: Provider, method: string, { pathname: path, searchParams: query }: URL): Promise<string | undefined> {
  const applicationOf = async (clientId: string | null | undefined) => {
    if (typeof clientId !== 'string' || !isUuid(clientId)) return undefined;
    return (await servedClientData(provider, clientId))?.applicationId;
  };
  if (method === 'GET' && path === OIDC_PATHS.authorization) return applicationOf(query.get('client_id'));
  const resumed = method === 'GET' ? resumedInteraction(path) : undefined;
  if (resumed !== undefined) {
    const interaction = await provider.Interaction.find(resumed);
    return applicationOf(interaction?.params['client_id'] as string | undefined);
  }
  if (method === 'GET' && path === OIDC_PATHS.end_session) return applicationOf(loggedOutClient(query));
  if (method === 'POST' && path === `${OIDC_PATHS.end_session}/confirm`) {
    const applicationId = query.get(APPLICATION_PARAMETER);
    return applicationId !== null && isUuid(applicationId) ? applicationId : undefined;
  }
  return undefined;
}

/** As the OP reads its parameters (`value || undefined`), an empty client_id is absent. */
function loggedOutClient(query: URLSearchParams): string | undefined {
  const hint = query.get('id_token_hint');
  return query.get('client_id') || (hint === null || hint === '' ? undefined : unverifiedAudience(hint));
}

/**
 * On a multi-application surface a logout naming no client ends no application's session, and a device's client's
 * sign-in is never in it (its grant outlives a sign-out anyway): refused rather than answered "signed out".
 */
export async function logoutRefusal(provider: Provider, method: string, { pathname, searchParams }: URL): Promise<UnbrandedCopyKey | undefined> {
  if (method !== 'GET' || pathname !== OIDC_PATHS.end_session) return undefined;
  const named = (name: string) => (searchParams.get(name) ?? '') !== '';
  if (!named('client_id') && !named('id_token_hint')) return 'refusal.logoutNoApplication';
  const clientId = loggedOutClient(searchParams);
  const data = clientId !== undefined && isUuid(clientId) ? await servedClientData(provider, clientId) : undefined;
  return data?.type === 'device' ? 'refusal.logoutDevice' : undefined;
}
