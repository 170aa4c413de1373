import { liveSession, renewSession } from './auth.ts';
import { readConfig } from './config.ts';
import { clearSession, type Session } from './session.ts';

interface GraphQLResponse<T> {
  readonly data?: T | null;
  readonly errors?: readonly { readonly message: string }[];
}

/** Which application the operator acts on (`X-Gatehouse-Application`); none when acting as themself. */
export interface RequestScope {
  readonly applicationId?: string;
}

async function post(session: Session, body: string, scope: RequestScope): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${session.accessToken}` };
  if (scope.applicationId !== undefined) headers['x-gatehouse-application'] = scope.applicationId;
  try {
    return await fetch('/graphql', { method: 'POST', headers, body });
  } catch {
    throw new Error('The Gatehouse server could not be reached.');
  }
}

/**
 * The one way the dashboard calls `POST /graphql`: the Bearer token (renewed when it nears its end, or once when
 * refused), the application header, and a refusal thrown as an Error with the server's human-readable message. A 401
 * that renewal does not mend ends the session, which shows the Sign in button again.
 */
export async function graphql<T>(query: string, variables: Record<string, unknown>, scope: RequestScope = {}): Promise<T> {
  const config = readConfig();
  const body = JSON.stringify({ query, variables });
  const session = await liveSession(config);
  let response = await post(session, body, scope);
  if (response.status === 401 && session.refreshToken !== null) response = await post(await renewSession(config, session), body, scope);
  if (response.status === 401) {
    clearSession();
    throw new Error('Your session has ended: sign in again.');
  }
  const answer = (await response.json().catch(() => ({}))) as GraphQLResponse<T>;
  const [error] = answer.errors ?? [];
  if (error !== undefined) throw new Error(error.message);
  if (!response.ok || answer.data === undefined || answer.data === null) {
    throw new Error(`The server answered HTTP ${response.status} without data.`);
  }
  return answer.data;
}
