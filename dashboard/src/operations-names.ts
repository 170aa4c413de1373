import { graphql } from './api.ts';

// What a table shows for the ids a row holds (a tenant's name, a user's e-mail), read once per distinct id of a page.

/**
 * Each distinct id read with `read`, in parallel. An id whose read fails (a row deleted since) shows as `fallback`
 * says: a name missing does not hide the rows.
 */
export async function readEach<T>(ids: Iterable<string>, read: (id: string) => Promise<T>, fallback: (id: string) => T): Promise<ReadonlyMap<string, T>> {
  const distinct = [...new Set(ids)];
  const answers = await Promise.all(distinct.map((id) => read(id).catch(() => fallback(id))));
  return new Map(distinct.map((id, at) => [id, answers[at] ?? fallback(id)]));
}

export async function readTenantName(appId: string, tenantId: string): Promise<string> {
  const query = 'query TenantName($appId: UUID!, $tenantId: UUID!) { tenant(appId: $appId, tenantId: $tenantId) { name } }';
  const data = await graphql<{ tenant: { name: string } }>(query, { appId, tenantId }, { applicationId: appId });
  return data.tenant.name;
}

export async function readUserEmail(appId: string, userId: string): Promise<string> {
  const query = 'query UserEmail($appId: UUID!, $userId: UUID!) { user(appId: $appId, userId: $userId) { email } }';
  const data = await graphql<{ user: { email: string } }>(query, { appId, userId }, { applicationId: appId });
  return data.user.email;
}

/** An operator is a user of the console: asked without the application header. */
export async function readOperatorEmail(operatorId: string): Promise<string> {
  const query = 'query OperatorEmail($userId: UUID!) { user(userId: $userId) { email } }';
  const data = await graphql<{ user: { email: string } }>(query, { userId: operatorId });
  return data.user.email;
}

export async function readClientName(appId: string, clientId: string): Promise<string> {
  const query = 'query ClientName($appId: UUID!, $clientId: UUID!) { oauthClient(appId: $appId, clientId: $clientId) { name } }';
  const data = await graphql<{ oauthClient: { name: string } }>(query, { appId, clientId }, { applicationId: appId });
  return data.oauthClient.name;
}
