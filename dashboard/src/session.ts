import { dropKeptDrafts, keepDrafts, settleKeptDrafts } from './kept-drafts.ts';

/** The signed-in operator's tokens, and who listens for them to change (sign-in, sign-out, a 401). */
export interface Session {
  /** Made at sign-in and kept through renewals: the name of the tab's claim on the session (claimSession). */
  readonly id: string;
  readonly accessToken: string;
  /** Milliseconds since the epoch. */
  readonly expiresAt: number;
  readonly refreshToken: string | null;
  readonly idToken: string;
  readonly email: string;
  /** The operator's `sub`: whose drafts the tab keeps when the session ends unasked. */
  readonly subject: string;
  /** The console's dashboard client and its organization the operator signed in to (`?organization=` picks one). */
  readonly clientId: string;
  readonly organizationId: string;
}

const SESSION_KEY = 'gatehouse.dashboard.session';
const listeners = new Set<() => void>();
// Kept in sessionStorage: a reload keeps the session, the tab's end drops it, and the CSP lets no foreign script read it.
let current = readStored();
let endedBecause: string | null = null;

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
  endedBecause = null;
  settleKeptDrafts(session);
  change(session);
}

/** Ends the tab's session; `reason` says why when the operator did not sign out (as a clause: "the server …"). */
export function clearSession(reason: string | null = null): void {
  // Ended unasked, the forms' edits wait for the operator's next sign-in; a sign-out drops them, as the operator agreed.
  if (reason === null) dropKeptDrafts();
  else if (current !== null) keepDrafts(current);
  endedBecause = reason;
  change(null);
}

export function sessionEndedBecause(): string | null {
  return endedBecause;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** How long a tab waits for another to let go of a session: a reload's previous page does at once, a live tab never. */
const CLAIM_WAIT_MS = 1000;
const claims = new Map<string, Promise<boolean>>();

/** Claims `session` for this tab while the page lives: a duplicated tab starts with a copy of sessionStorage, and two tabs
 *  renewing one refresh token would end both sessions (reuse revokes the grant). False when another tab holds it (sign in
 *  anew); true without Web Locks (an insecure context). */
export function claimSession(session: Session): Promise<boolean> {
  let claim = claims.get(session.id);
  if (claim === undefined) {
    claim = 'locks' in navigator ? holdLock(`gatehouse.dashboard.session:${session.id}`) : Promise.resolve(true);
    claims.set(session.id, claim);
  }
  return claim;
}

function holdLock(name: string): Promise<boolean> {
  return new Promise((resolve) => {
    navigator.locks
      .request(name, { signal: AbortSignal.timeout(CLAIM_WAIT_MS) }, () => {
        resolve(true);
        // Held until the page goes.
        return new Promise<never>(() => undefined);
      })
      .catch(() => resolve(false));
  });
}
