/** The signed-in operator's tokens, and who listens for them to change (sign-in, sign-out, a 401). */
export interface Session {
  readonly accessToken: string;
  /** When the access token expires, in milliseconds since the epoch. */
  readonly expiresAt: number;
  /** Renews the access token without a page load; rotated at each use. */
  readonly refreshToken: string | null;
  readonly idToken: string;
  readonly email: string;
  /** The console's dashboard client and its organization the operator signed in to (`?organization=` picks one). */
  readonly clientId: string;
  readonly organizationId: string;
}

const SESSION_KEY = 'gatehouse.dashboard.session';
const listeners = new Set<() => void>();
// Kept in sessionStorage: a reload keeps the session, the tab's end drops it, and the CSP lets no foreign script read it.
let current = readStored();

function readStored(): Session | null {
  const stored = sessionStorage.getItem(SESSION_KEY);
  return stored === null ? null : (JSON.parse(stored) as Session);
}

function change(session: Session | null): void {
  if (session === null) sessionStorage.removeItem(SESSION_KEY);
  else sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  current = session;
  for (const listener of listeners) listener();
}

export function getSession(): Session | null {
  return current;
}

export function saveSession(session: Session): void {
  change(session);
}

export function clearSession(): void {
  change(null);
}

/** For useSyncExternalStore: calls `listener` after every change; returns the unsubscribe. */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
