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

/** The `name` of one of the application's items: `field` read with its id as `idArgument` (`tenant(tenantId:)`). */
async function readName(appId: string, field: string, idArgument: string, id: string): Promise<string> {
  const query = `query ItemName($appId: UUID!, $id: UUID!) { item: ${field}(appId: $appId, ${idArgument}: $id) { name } }`;
  const data = await graphql<{ item: { name: string } }>(query, { appId, id }, { applicationId: appId });
  return data.item.name;
}

export const readTenantName = (appId: string, tenantId: string) => readName(appId, 'tenant', 'tenantId', tenantId);
export const readRoleName = (appId: string, roleId: string) => readName(appId, 'role', 'roleId', roleId);
export const readClientName = (appId: string, clientId: string) => readName(appId, 'oauthClient', 'clientId', clientId);
export const readApiKeyName = (appId: string, keyId: string) => readName(appId, 'apiKey', 'keyId', keyId);
export const readM2MCredentialName = (appId: string, credentialId: string) => readName(appId, 'm2mCredential', 'credentialId', credentialId);

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
