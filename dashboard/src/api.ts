import { clearSession, getSession } from './session.ts';

interface GraphQLResponse<T> {
  readonly data?: T | null;
  readonly errors?: readonly { readonly message: string }[];
}

/** Which application the operator acts on (`X-Gatehouse-Application`); none when acting as themself. */
export interface RequestScope {
  readonly applicationId?: string;
}

/**
 * The one way the dashboard calls `POST /graphql`: the Bearer token, the application header, and a refusal thrown as
 * an Error with the server's human-readable message. A 401 ends the session, which shows the Sign in button again.
 */
export async function graphql<T>(query: string, variables: Record<string, unknown>, scope: RequestScope = {}): Promise<T> {
  const session = getSession();
  if (session === null) throw new Error('You are signed out.');
  const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${session.accessToken}` };
  if (scope.applicationId !== undefined) headers['x-gatehouse-application'] = scope.applicationId;

  let response: Response;
  try {
    response = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  } catch {
    throw new Error('The Gatehouse server could not be reached.');
  }
  if (response.status === 401) {
    clearSession();
    throw new Error('Your session has ended: sign in again.');
  }
  const body = (await response.json().catch(() => ({}))) as GraphQLResponse<T>;
  const [error] = body.errors ?? [];
  if (error !== undefined) throw new Error(error.message);
  if (!response.ok || body.data === undefined || body.data === null) {
    throw new Error(`The server answered HTTP ${response.status} without data.`);
  }
  return body.data;
}
