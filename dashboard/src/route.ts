import { useSyncExternalStore } from 'react';
import { mayDiscardChanges } from './hooks/use-unsaved-changes.ts';

/**
 * The applications, or one of them and one of its tabs (both optional): the dashboard's default page, which opens an
 * operator's only application at once; `page` set, the list itself, where applications are created.
 */
export interface ApplicationsRoute {
  readonly page?: 'applications';
  readonly appId?: string;
  readonly tab?: string;
  /** The tenant a tab acts in, for an operator holding roles in some tenants only (`#/{appId}/users/{tenantId}`). */
  readonly tenantId?: string;
}

/** Where the operator is: the applications, or the organization's own page. Held in the URL's fragment. */
export type Route = ApplicationsRoute | { readonly page: 'organization' };

// No clash with an application: their ids are UUIDs.
const ORGANIZATION_SEGMENT = 'organization';
const APPLICATIONS_SEGMENT = 'applications';

/** A segment as written when it does not decode: a thrown URIError would take down the whole dashboard. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

// The fragment, not the path: the redirect URI stays one (/dashboard/) and the server serves one page.
function parse(hash: string): Route {
  const [appId, tab, tenantId] = hash.replace(/^#\/?/, '').split('/').map(decodedSegment);
  if (appId === ORGANIZATION_SEGMENT) return { page: 'organization' };
  if (appId === APPLICATIONS_SEGMENT) return { page: 'applications' };
  return { ...(appId ? { appId } : {}), ...(tab ? { tab } : {}), ...(tab && tenantId ? { tenantId } : {}) };
}

export function routeHash(route: Route): string {
  if (route.page === 'organization') return `#/${ORGANIZATION_SEGMENT}`;
  if (route.appId === undefined) return route.page === 'applications' ? `#/${APPLICATIONS_SEGMENT}` : '#/';
  const tenant = route.tab === undefined || route.tenantId === undefined ? '' : `/${encodeURIComponent(route.tenantId)}`;
  return `#/${encodeURIComponent(route.appId)}${route.tab === undefined ? '' : `/${encodeURIComponent(route.tab)}`}${tenant}`;
}

export function tabSlug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

// Back or Forward away from unsaved edits asks after the move and puts the address back when declined; listening
// before useRoute's subscriptions, a declined move never reaches them.
/** The fragment of a move already agreed to (a link, navigate()), which its hashchange does not ask about again. */
let agreedHash: string | null = null;

/** Whether the page may go to `hash`: nothing is lost, or the operator agrees. */
function mayGo(hash: string): boolean {
  if (hash === location.hash) return true;
  if (!mayDiscardChanges()) return false;
  agreedHash = hash;
  return true;
}

addEventListener('hashchange', (event) => {
  const agreed = agreedHash === location.hash;
  agreedHash = null;
  if (agreed || mayDiscardChanges()) return;
  event.stopImmediatePropagation();
  history.replaceState(history.state, '', event.oldURL);
});

// A link to another of the page's fragments (a tab, the Organization page), clicked plainly (not into a new tab).
document.addEventListener(
  'click',
  (event) => {
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[href^="#"]') : null;
    const plain = event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
    if (link !== null && plain && !event.defaultPrevented && !mayGo(link.hash)) event.preventDefault();
  },
  true,
);

/** Goes to `route` as a new history entry, so Back returns to where the operator was; not if unsaved edits are kept. */
export function navigate(route: Route): void {
  const hash = routeHash(route);
  if (mayGo(hash)) location.hash = hash;
}

function subscribe(listener: () => void): () => void {
  addEventListener('hashchange', listener);
  return () => removeEventListener('hashchange', listener);
}

const currentHash = () => location.hash;

export function useRoute(): Route {
  return parse(useSyncExternalStore(subscribe, currentHash));
}
