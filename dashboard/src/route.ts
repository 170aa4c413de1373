import { useSyncExternalStore } from 'react';

/** The applications, or one of them and one of its tabs (both optional): the dashboard's default page. */
export interface ApplicationsRoute {
  readonly page?: 'applications';
  readonly appId?: string;
  readonly tab?: string;
}

/** Where the operator is: the applications, or the organization's own page. Held in the URL's fragment. */
export type Route = ApplicationsRoute | { readonly page: 'organization' };

// No clash with an application: their ids are UUIDs.
const ORGANIZATION_SEGMENT = 'organization';

// The fragment, not the path: the redirect URI stays one (/dashboard/) and the server serves one page.
function parse(hash: string): Route {
  const [appId, tab] = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (appId === ORGANIZATION_SEGMENT) return { page: 'organization' };
  return { ...(appId ? { appId } : {}), ...(tab ? { tab } : {}) };
}

export function routeHash(route: Route): string {
  if (route.page === 'organization') return `#/${ORGANIZATION_SEGMENT}`;
  if (route.appId === undefined) return '#/';
  return `#/${encodeURIComponent(route.appId)}${route.tab === undefined ? '' : `/${encodeURIComponent(route.tab)}`}`;
}

/** A tab's name as it reads in the URL: "API keys" → "api-keys". */
export function tabSlug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/** Goes to `route` as a new history entry, so Back returns to where the operator was. */
export function navigate(route: Route): void {
  location.hash = routeHash(route);
}

function subscribe(listener: () => void): () => void {
  addEventListener('hashchange', listener);
  return () => removeEventListener('hashchange', listener);
}

const currentHash = () => location.hash;

/** The route in the URL, and a new render whenever it changes (a tab, Back, a bookmark). */
export function useRoute(): Route {
  return parse(useSyncExternalStore(subscribe, currentHash));
}
