import { graphql } from './api.ts';
import type { Page } from './operations.ts';
import { readNames, type ItemReference } from './operations-names.ts';

// The Sessions tab's calls: the application's live sessions, or one address's.

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

async function named(appId: string, page: Page<SessionFields>): Promise<Page<Session>> {
  const sessions = page.data;
  const nameOf = await readNames(
    appId,
    sessions.flatMap((session): ItemReference[] => [
      { type: 'user', id: session.userId },
      { type: 'oauth_client', id: session.clientId },
      ...(session.tenantId === null ? [] : [{ type: 'tenant' as const, id: session.tenantId }]),
    ]),
  );
  return {
    data: sessions.map((session) => ({
      ...session,
      userEmail: nameOf('user', session.userId) ?? session.userId,
      tenantName: session.tenantId === null ? null : (nameOf('tenant', session.tenantId) ?? session.tenantId),
      clientName: nameOf('oauth_client', session.clientId) ?? session.clientId,
    })),
    next: page.next,
  };
}

export async function listSessions(appId: string, cursor: string | null): Promise<Page<Session>> {
  const query = `query Sessions($appId: UUID!, $pageSize: Int, $cursor: String) {
    sessions(appId: $appId, pageSize: $pageSize, cursor: $cursor) { data { ...SessionFields } next }
  }
  ${SESSION_FIELDS}`;
  const data = await graphql<{ sessions: Page<SessionFields> }>(query, { appId, pageSize: PAGE_SIZE, cursor }, { applicationId: appId });
  return named(appId, data.sessions);
}

async function readUserSessions(appId: string, userId: string, cursor: string | null): Promise<Page<SessionFields>> {
  const query = `query UserSessions($appId: UUID!, $userId: UUID!, $pageSize: Int, $cursor: String) {
    userSessions(appId: $appId, userId: $userId, pageSize: $pageSize, cursor: $cursor) { data { ...SessionFields } next }
  }
  ${SESSION_FIELDS}`;
  const data = await graphql<{ userSessions: Page<SessionFields> }>(query, { appId, userId, pageSize: PAGE_SIZE, cursor }, { applicationId: appId });
  return data.userSessions;
}

/** The ids of the application's users of this address: one, or one per pool where tenants have their own. */
export async function findUserIds(appId: string, email: string): Promise<readonly string[]> {
  const query = 'query UsersByEmail($appId: UUID!, $email: String, $pageSize: Int) { users(appId: $appId, email: $email, pageSize: $pageSize) { data { id } } }';
  const data = await graphql<{ users: { data: { id: string }[] } }>(query, { appId, email, pageSize: PAGE_SIZE }, { applicationId: appId });
  return data.users.data.map((user) => user.id);
}

/** Where a read of several users' sessions is: the user (index in the list), and the cursor in their sessions. */
interface UsersCursor {
  readonly at: number;
  readonly cursor: string | null;
}

/** The sessions of each of `userIds` in turn, page by page; a user without any is passed over. */
export async function listUsersSessions(appId: string, userIds: readonly string[], cursor: string | null): Promise<Page<Session>> {
  let position: UsersCursor = cursor === null ? { at: 0, cursor: null } : (JSON.parse(cursor) as UsersCursor);
  for (;;) {
    const userId = userIds[position.at];
    if (userId === undefined) return { data: [], next: null };
    const page = await readUserSessions(appId, userId, position.cursor);
    const next: UsersCursor | null =
      page.next !== null ? { at: position.at, cursor: page.next } : position.at + 1 < userIds.length ? { at: position.at + 1, cursor: null } : null;
    if (page.data.length > 0 || next === null) return named(appId, { data: page.data, next: next === null ? null : JSON.stringify(next) });
    position = next;
  }
}

/**
 * Ends the session as its tenant's path does: a tenant's sign-in with its grants and tokens, the browser's sign-ins to
 * other tenants left standing; a sign-in to the application itself (no tenant), its whole browser session.
 */
export async function revokeSession(appId: string, session: Pick<Session, 'id' | 'tenantId'>): Promise<void> {
  const mutation = 'mutation RevokeSession($appId: UUID!, $tenantId: UUID, $sessionId: UUID!) { revokeSession(appId: $appId, tenantId: $tenantId, sessionId: $sessionId) }';
  await graphql<{ revokeSession: boolean }>(mutation, { appId, tenantId: session.tenantId, sessionId: session.id }, { applicationId: appId });
}
