import { FULL_PAGE, readAllPages } from './all-pages.ts';
import { graphql } from './api.ts';
import { USER_FIELDS, type Page, type User } from './operations.ts';

export interface NewUser {
  readonly email: string;
  readonly name: string | null;
  readonly password: string | null;
  /** Null: no tenant (a single-tenant application, or a shared pool's user of no tenant yet). */
  readonly tenantId: string | null;
}

/** The server refuses an address its pool already has (409) and a password its pool's policy refuses (422). */
export async function createUser(appId: string, { email, name, password, tenantId }: NewUser): Promise<User> {
  const mutation = `mutation CreateUser($appId: UUID!, $input: CreateUserInput!) { createUser(appId: $appId, input: $input) { ${USER_FIELDS} } }`;
  const input = { email, ...(name === null ? {} : { name }), ...(password === null ? {} : { password }), ...(tenantId === null ? {} : { tenantId }) };
  const data = await graphql<{ createUser: User }>(mutation, { appId, input }, { applicationId: appId });
  return data.createUser;
}

export type UserChange = 'suspendUser' | 'activateUser' | 'unlockUser' | 'resetUserMfa';

export async function changeUser(appId: string, change: UserChange, userId: string): Promise<User> {
  const mutation = `mutation ChangeUser($appId: UUID!, $userId: UUID!) { ${change}(appId: $appId, userId: $userId) { ${USER_FIELDS} } }`;
  const data = await graphql<Record<UserChange, User>>(mutation, { appId, userId }, { applicationId: appId });
  return data[change];
}

export interface UserUpdate {
  /** Unique in the user's pool: the server answers 409 for an address it already has. */
  readonly email?: string;
  readonly name?: string | null;
  /** The whole membership list, which replaces theirs (a shared pool only: the server refuses it when isolated). */
  readonly tenantIds?: readonly string[];
}

export async function updateUser(appId: string, userId: string, input: UserUpdate): Promise<User> {
  const mutation = `mutation UpdateUser($appId: UUID!, $userId: UUID!, $input: UpdateUserInput!) {
    updateUser(appId: $appId, userId: $userId, input: $input) { ${USER_FIELDS} }
  }`;
  const data = await graphql<{ updateUser: User }>(mutation, { appId, userId, input }, { applicationId: appId });
  return data.updateUser;
}

export async function deleteUser(appId: string, userId: string): Promise<void> {
  const mutation = 'mutation DeleteUser($appId: UUID!, $userId: UUID!) { deleteUser(appId: $appId, userId: $userId) }';
  await graphql<{ deleteUser: boolean }>(mutation, { appId, userId }, { applicationId: appId });
}

/** How many live sessions the user has, from one page of them: `more` when there are others beyond it. */
export async function countUserSessions(appId: string, userId: string): Promise<{ readonly count: number; readonly more: boolean }> {
  const query = `query UserSessionCount($appId: UUID!, $userId: UUID!, $pageSize: Int) {
    userSessions(appId: $appId, userId: $userId, pageSize: $pageSize) { data { id } next }
  }`;
  const data = await graphql<{ userSessions: { data: { id: string }[]; next: string | null } }>(query, { appId, userId, pageSize: FULL_PAGE }, { applicationId: appId });
  return { count: data.userSessions.data.length, more: data.userSessions.next !== null };
}

/** A user's account at an upstream (social) provider, by which they sign in. */
export interface UpstreamLink {
  readonly id: string;
  readonly providerId: string;
  readonly subject: string;
  readonly createdAt: string;
}

export async function listUpstreamLinks(appId: string, userId: string): Promise<UpstreamLink[]> {
  const query = `query UserUpstreamLinks($appId: UUID!, $userId: UUID!, $pageSize: Int, $cursor: String) {
    userUpstreamLinks(appId: $appId, userId: $userId, pageSize: $pageSize, cursor: $cursor) { data { id providerId subject createdAt } next }
  }`;
  return readAllPages(async (cursor) => {
    const data = await graphql<{ userUpstreamLinks: Page<UpstreamLink> }>(query, { appId, userId, pageSize: FULL_PAGE, cursor }, { applicationId: appId });
    return data.userUpstreamLinks;
  });
}

export async function unlinkUpstream(appId: string, userId: string, linkId: string): Promise<void> {
  const mutation = 'mutation Unlink($appId: UUID!, $userId: UUID!, $linkId: UUID!) { deleteUserUpstreamLink(appId: $appId, userId: $userId, linkId: $linkId) }';
  await graphql<{ deleteUserUpstreamLink: boolean }>(mutation, { appId, userId, linkId }, { applicationId: appId });
}
