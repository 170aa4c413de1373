import { AsyncLocalStorage } from 'node:async_hooks';
import type Provider from 'oidc-provider';
import { unverifiedAudience } from '../auth/jwt.ts';
import { isUuid } from '../ids.ts';
import type { CopyKey } from '../pages/pages.ts';
import { servedClientData } from './clients.ts';
import { OIDC_PATHS } from './configuration.ts';

/**
 * Whose browser session an OP request uses. The service's surface and a tenant path by slug serve every application,
 * and oidc-provider keeps one account per session cookie: a sign-in to another application would sign the user out of
 * the first and revoke its grants. So there each application's session has its own cookie (`_session.{application
 * id}`), chosen from the request's client before the OP reads the session: `client_id`, the resumed interaction's, the
 * logout's (`client_id` or `id_token_hint`'s audience), or `?app=` on the logout confirmation's address.
 * The device pages keep the plain cookie (the client is known only once the code is typed). A logout naming no client,
 * or a device's client, is refused there (logoutRefusal) rather than answered "signed out" with the session standing. A
 * custom domain serves one application, and its host keeps its cookies apart.
 */
const current = new AsyncLocalStorage<string | undefined>();

/** The query parameter of the logout confirmation's address that names the session's application. */
const APPLICATION_PARAMETER = 'app';

/** Runs `handle` (the OP answering a request) with the session of `applicationId` (undefined: the plain one). */
export function withSessionOf<T>(applicationId: string | undefined, handle: () => Promise<T>): Promise<T> {
  return current.run(applicationId, handle);
}

/** The session cookie's name for the request being answered: `base` for no application. */
export function sessionCookieName(base: string): string {
  const applicationId = current.getStore();
  return applicationId === undefined ? base : `${base}.${applicationId}`;
}

/** The logout confirmation's address for the request being answered: `url`, naming the session's application. */
export function confirmationUrl(url: string): string {
  const applicationId = current.getStore();
  return applicationId === undefined ? url : `${url}?${APPLICATION_PARAMETER}=${applicationId}`;
}

/** The interaction an authorization request's resume step (`/oauth2/authorize/{uid}`) names, if `path` is one. */
function resumedInteraction(path: string): string | undefined {
  const prefix = `${OIDC_PATHS.authorization}/`;
  const uid = path.startsWith(prefix) ? path.slice(prefix.length) : '';
  return /^[\w-]+$/.test(uid) ? uid : undefined;
}

/**
 * The application whose session a request to `url` (the OP's own path) uses, or undefined for the plain session. Read
 * through the surface's OP, so an unknown client or interaction names nothing and the OP refuses it as it would.
 */
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

/** The client a logout names: as the OP reads its parameters (`value || undefined`), an empty client_id is absent. */
function loggedOutClient(query: URLSearchParams): string | undefined {
  const hint = query.get('id_token_hint');
  return query.get('client_id') || (hint === null || hint === '' ? undefined : unverifiedAudience(hint));
}

/**
 * Why a logout (RP-initiated) on a surface that serves several applications ends nothing, as the copy key of its
 * refusal: it names no client, so no application's session; or a device's client, whose sign-in this application's
 * session never holds (the device pages keep the plain one) and whose grant outlives a sign-out anyway.
 */
export async function logoutRefusal(provider: Provider, method: string, { pathname, searchParams }: URL): Promise<CopyKey | undefined> {
  if (method !== 'GET' || pathname !== OIDC_PATHS.end_session) return undefined;
  const named = (name: string) => (searchParams.get(name) ?? '') !== '';
  if (!named('client_id') && !named('id_token_hint')) return 'refusal.logoutNoApplication';
  const clientId = loggedOutClient(searchParams);
  const data = clientId !== undefined && isUuid(clientId) ? await servedClientData(provider, clientId) : undefined;
  return data?.type === 'device' ? 'refusal.logoutDevice' : undefined;
}
