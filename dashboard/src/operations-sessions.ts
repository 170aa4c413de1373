import { callInScope, scopeIn, type NamedTenant, type Page } from './operations.ts';
import { readNames, type ItemReference } from './operations-names.ts';

// The Sessions tab's calls: the application's live sessions, or one address's; or in one tenant's scope (a tenant's
// Sessions screen, for an operator of some tenants only), its sign-ins.

/** Where sessions are listed and revoked: the application's, or one tenant's in its scope. */
export interface SessionsPlace {
  readonly appId: string;
  /** Null: the application's. */
  readonly tenant: NamedTenant | null;
}

const scopeOf = ({ appId, tenant }: SessionsPlace) => scopeIn(appId, tenant);

interface SessionFields {
  readonly id: string;
  readonly userId: string;
  /** Null: a sign-in to the application itself. */
  readonly tenantId: string | null;
  readonly clientId: string;
  readonly createdAt: string;
  readonly lastActiveAt: string;
  readonly expiresAt: string;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly methods: readonly string[];
}

/** A live session with the names its ids stand for (an id where a name could not be read). */
export interface Session extends SessionFields {
  readonly userEmail: string;
  readonly tenantName: string | null;
  readonly clientName: string;
}

const SESSION_FIELDS = `fragment SessionFields on Session {
  id userId tenantId clientId createdAt lastActiveAt expiresAt ip userAgent methods
}`;

const PAGE_SIZE = 25;

/**
 * A client a tenant's scope does not name: the application's own (which it does not read), or any without
 * `oauth_clients:read`.
 */
export const UNNAMED_CLIENT = 'Unnamed client';

/**
 * The page with its users, clients and tenants named, read in the place's scope; in a tenant's, the tenant is the one
 * named. The clients apart: an operator who may not read them still has the users named.
 */
async function named(place: SessionsPlace, page: Page<SessionFields>): Promise<Page<Session>> {
  const { tenant } = place;
  const sessions = page.data;
  const [nameOf, clientNameOf] = await Promise.all([
    readNames(
      scopeOf(place),
      sessions.flatMap((session): ItemReference[] => [
        { type: 'user', id: session.userId },
        ...(session.tenantId === null || tenant !== null ? [] : [{ type: 'tenant' as const, id: session.tenantId }]),
      ]),
    ),
    readNames(scopeOf(place), sessions.map((session) => ({ type: 'oauth_client' as const, id: session.clientId }))),
  ]);
  const tenantName = (tenantId: string) => (tenantId === tenant?.id ? tenant.name : nameOf('tenant', tenantId)) ?? tenantId;
  return {
    data: sessions.map((session) => ({
      ...session,
      userEmail: nameOf('user', session.userId) ?? session.userId,
      tenantName: session.tenantId === null ? null : tenantName(session.tenantId),
      clientName: clientNameOf('oauth_client', session.clientId) ?? (tenant === null ? session.clientId : UNNAMED_CLIENT),
    })),
    next: page.next,
  };
}

export async function listSessions(place: SessionsPlace, cursor: string | null): Promise<Page<Session>> {
  const query = `query Sessions($appId: UUID!, $tenantId: UUID, $pageSize: Int, $cursor: String) {
    sessions(appId: $appId, tenantId: $tenantId, pageSize: $pageSize, cursor: $cursor) { data { ...SessionFields } next }
  }
  ${SESSION_FIELDS}`;
  const data = await callInScope<{ sessions: Page<SessionFields> }>(query, scopeOf(place), { pageSize: PAGE_SIZE, cursor });
  return named(place, data.sessions);
}

async function readUserSessions(place: SessionsPlace, userId: string, cursor: string | null): Promise<Page<SessionFields>> {
  const query = `query UserSessions($appId: UUID!, $tenantId: UUID, $userId: UUID!, $pageSize: Int, $cursor: String) {
    userSessions(appId: $appId, tenantId: $tenantId, userId: $userId, pageSize: $pageSize, cursor: $cursor) { data { ...SessionFields } next }
  }
  ${SESSION_FIELDS}`;
  const data = await callInScope<{ userSessions: Page<SessionFields> }>(query, scopeOf(place), { userId, pageSize: PAGE_SIZE, cursor });
  return data.userSessions;
}

/** The ids of the place's users of this address (a tenant's: its members): one, or one per pool where tenants have their own. */
export async function findUserIds(place: SessionsPlace, email: string): Promise<readonly string[]> {
  const query = `query UsersByEmail($appId: UUID!, $tenantId: UUID, $email: String, $pageSize: Int) {
    users(appId: $appId, tenantId: $tenantId, email: $email, pageSize: $pageSize) { data { id } }
  }`;
  const data = await callInScope<{ users: { data: { id: string }[] } }>(query, scopeOf(place), { email, pageSize: PAGE_SIZE });
  return data.users.data.map((user) => user.id);
}

/** Where a read of several users' sessions is: the user (index in the list), and the cursor in their sessions. */
interface UsersCursor {
  readonly at: number;
  readonly cursor: string | null;
}

/** The sessions of each of `userIds` in turn, page by page; a user without any is passed over. */
export async function listUsersSessions(place: SessionsPlace, userIds: readonly string[], cursor: string | null): Promise<Page<Session>> {
  let position: UsersCursor = cursor === null ? { at: 0, cursor: null } : (JSON.parse(cursor) as UsersCursor);
  for (;;) {
    const userId = userIds[position.at];
    if (userId === undefined) return { data: [], next: null };
    const page = await readUserSessions(place, userId, position.cursor);
    const next: UsersCursor | null =
      page.next !== null ? { at: position.at, cursor: page.next } : position.at + 1 < userIds.length ? { at: position.at + 1, cursor: null } : null;
    if (page.data.length > 0 || next === null) return named(place, { data: page.data, next: next === null ? null : JSON.stringify(next) });
    position = next;
  }
}

/**
 * Ends the session as its tenant's path does: a tenant's sign-in with its grants and tokens, the browser's sign-ins to
 * other tenants left standing; a sign-in to the application itself (no tenant), its whole browser session. In a
 * tenant's scope, every session listed is that tenant's sign-in.
 */
export async function revokeSession(place: SessionsPlace, session: Pick<Session, 'id' | 'tenantId'>): Promise<void> {
  const mutation = 'mutation RevokeSession($appId: UUID!, $tenantId: UUID, $sessionId: UUID!) { revokeSession(appId: $appId, tenantId: $tenantId, sessionId: $sessionId) }';
  await callInScope<{ revokeSession: boolean }>(mutation, { appId: place.appId, tenantId: place.tenant?.id ?? session.tenantId }, { sessionId: session.id });
}
