import { FULL_PAGE, readAllPages } from './all-pages.ts';
import { callInScope, USER_FIELDS, type Page, type SettingsScope, type User } from './operations.ts';

// A user's operations in a scope: the application's, or one tenant's, where the API judges them as on its tenant path.

export interface NewUser {
  readonly email: string;
  readonly name: string | null;
  readonly password: string | null;
  /** Null: no tenant (a single-tenant application, or a shared pool's user of no tenant yet); in a tenant's scope, that tenant. */
  readonly tenantId: string | null;
}

/** The server refuses an address its pool already has (409) and a password its pool's policy refuses (422). */
export async function createUser(scope: SettingsScope, { email, name, password, tenantId }: NewUser): Promise<User> {
  const mutation = `mutation CreateUser($appId: UUID!, $tenantId: UUID, $input: CreateUserInput!) {
    createUser(appId: $appId, tenantId: $tenantId, input: $input) { ${USER_FIELDS} }
  }`;
  const input = { email, ...(name === null ? {} : { name }), ...(password === null ? {} : { password }), ...(tenantId === null ? {} : { tenantId }) };
  const data = await callInScope<{ createUser: User }>(mutation, scope, { input });
  return data.createUser;
}

export type UserChange = 'suspendUser' | 'activateUser' | 'unlockUser' | 'resetUserMfa';

export async function changeUser(scope: SettingsScope, change: UserChange, userId: string): Promise<User> {
  const mutation = `mutation ChangeUser($appId: UUID!, $tenantId: UUID, $userId: UUID!) {
    ${change}(appId: $appId, tenantId: $tenantId, userId: $userId) { ${USER_FIELDS} }
  }`;
  const data = await callInScope<Record<UserChange, User>>(mutation, scope, { userId });
  return data[change];
}

export interface UserUpdate {
  /** Unique in the user's pool: the server answers 409 for an address it already has. */
  readonly email?: string;
  readonly name?: string | null;
  /** The whole membership list, which replaces theirs (a shared pool only: the server refuses it when isolated). */
  readonly tenantIds?: readonly string[];
}

export async function updateUser(scope: SettingsScope, userId: string, input: UserUpdate): Promise<User> {
  const mutation = `mutation UpdateUser($appId: UUID!, $tenantId: UUID, $userId: UUID!, $input: UpdateUserInput!) {
    updateUser(appId: $appId, tenantId: $tenantId, userId: $userId, input: $input) { ${USER_FIELDS} }
  }`;
  const data = await callInScope<{ updateUser: User }>(mutation, scope, { userId, input });
  return data.updateUser;
}

/** In a tenant's scope of a shared pool, only the user's membership of that tenant goes. */
export async function deleteUser(scope: SettingsScope, userId: string): Promise<void> {
  const mutation = 'mutation DeleteUser($appId: UUID!, $tenantId: UUID, $userId: UUID!) { deleteUser(appId: $appId, tenantId: $tenantId, userId: $userId) }';
  await callInScope<{ deleteUser: boolean }>(mutation, scope, { userId });
}

/** How many live sessions the user has, from one page of them: `more` when there are others beyond it. */
export async function countUserSessions(scope: SettingsScope, userId: string): Promise<{ readonly count: number; readonly more: boolean }> {
  const query = `query UserSessionCount($appId: UUID!, $tenantId: UUID, $userId: UUID!, $pageSize: Int) {
    userSessions(appId: $appId, tenantId: $tenantId, userId: $userId, pageSize: $pageSize) { data { id } next }
  }`;
  const data = await callInScope<{ userSessions: { data: { id: string }[]; next: string | null } }>(query, scope, { userId, pageSize: FULL_PAGE });
  return { count: data.userSessions.data.length, more: data.userSessions.next !== null };
}

/** Ends every session and grant of the user in the scope (a tenant's: their sign-ins to it), offline ones included. */
export async function revokeUserSessions(scope: SettingsScope, userId: string): Promise<void> {
  const mutation = 'mutation RevokeUserSessions($appId: UUID!, $tenantId: UUID, $userId: UUID!) { revokeUserSessions(appId: $appId, tenantId: $tenantId, userId: $userId) }';
  await callInScope<{ revokeUserSessions: boolean }>(mutation, scope, { userId });
}

/** A user's account at an upstream (social) provider, by which they sign in. */
export interface UpstreamLink {
  readonly id: string;
  readonly providerId: string;
  readonly subject: string;
  readonly createdAt: string;
}

export async function listUpstreamLinks(scope: SettingsScope, userId: string): Promise<UpstreamLink[]> {
  const query = `query UserUpstreamLinks($appId: UUID!, $tenantId: UUID, $userId: UUID!, $pageSize: Int, $cursor: String) {
    userUpstreamLinks(appId: $appId, tenantId: $tenantId, userId: $userId, pageSize: $pageSize, cursor: $cursor) { data { id providerId subject createdAt } next }
  }`;
  return readAllPages(async (cursor) => {
    const data = await callInScope<{ userUpstreamLinks: Page<UpstreamLink> }>(query, scope, { userId, pageSize: FULL_PAGE, cursor });
    return data.userUpstreamLinks;
  });
}

export async function unlinkUpstream(scope: SettingsScope, userId: string, linkId: string): Promise<void> {
  const mutation = `mutation Unlink($appId: UUID!, $tenantId: UUID, $userId: UUID!, $linkId: UUID!) {
    deleteUserUpstreamLink(appId: $appId, tenantId: $tenantId, userId: $userId, linkId: $linkId)
  }`;
  await callInScope<{ deleteUserUpstreamLink: boolean }>(mutation, scope, { userId, linkId });
}
