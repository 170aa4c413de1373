import { CloseCode, createClient, type FormattedExecutionResult } from 'graphql-ws';
import { liveSession, renewSession } from './auth.ts';
import { readConfig, type DashboardConfig } from './config.ts';
import { clearSession, type Session } from './session.ts';

/** One item of a refusal's `details` (what blocks it, each refused input…), as the server names it. */
export type ErrorDetail = Readonly<Record<string, string | number | boolean | null>>;

interface GraphQLResponse<T> {
  readonly data?: T | null;
  readonly errors?: readonly { readonly message: string; readonly extensions?: { readonly code?: string; readonly field?: string; readonly details?: readonly ErrorDetail[] } }[];
}

/** The server's refusal: its message, code (`organization_deactivated`, `not_found`…), the input it names as the API does
 *  (`redirectUris[1]`) and details. */
export class ApiError extends Error {
  readonly code: string | undefined;
  readonly field: string | undefined;
  readonly details: readonly ErrorDetail[];

  constructor(message: string, code: string | undefined, details: readonly ErrorDetail[] = [], field?: string) {
    super(message);
    this.code = code;
    this.field = field;
    this.details = details;
  }

  /** The same refusal naming the input a form knows it by, when the form sends it under another name. */
  naming(field: string): ApiError {
    return new ApiError(this.message, this.code, this.details, field);
  }
}

/** Which application the operator acts on (`X-Gatehouse-Application`); none when acting as themself. */
export interface RequestScope {
  readonly applicationId?: string;
}

function credentialHeaders(session: Session, scope: RequestScope): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${session.accessToken}` };
  if (scope.applicationId !== undefined) headers['x-gatehouse-application'] = scope.applicationId;
  return headers;
}

async function post(session: Session, body: string, scope: RequestScope): Promise<Response> {
  const headers = { 'content-type': 'application/json', ...credentialHeaders(session, scope) };
  try {
    return await fetch('/graphql', { method: 'POST', headers, body });
  } catch {
    throw new Error('The Gatehouse server could not be reached.');
  }
}

function endRefusedSession(): never {
  clearSession('the server no longer accepts its access token.');
  throw new Error('Your session has ended: sign in again.');
}

/** A new access token for one the server refused; without a refresh token the session ends. */
async function renewRefused(config: DashboardConfig, session: Session): Promise<Session> {
  if (session.refreshToken === null) endRefusedSession();
  return renewSession(config, session);
}

/** The one way the dashboard calls `POST /graphql`: the Bearer token (renewed near its end, or once when refused), the
 *  application header, a refusal thrown as an ApiError. A 401 that renewal does not mend ends the session. */
export async function graphql<T>(query: string, variables: Record<string, unknown>, scope: RequestScope = {}): Promise<T> {
  const config = readConfig();
  const body = JSON.stringify({ query, variables });
  const session = await liveSession(config);
  let response = await post(session, body, scope);
  if (response.status === 401) response = await post(await renewRefused(config, session), body, scope);
  if (response.status === 401) endRefusedSession();
  const answer = (await response.json().catch(() => ({}))) as GraphQLResponse<T>;
  const [error] = answer.errors ?? [];
  if (error !== undefined) throw new ApiError(error.message, error.extensions?.code, error.extensions?.details, error.extensions?.field);
  if (!response.ok || answer.data === undefined || answer.data === null) {
    throw new Error(`The server answered HTTP ${response.status} without data.`);
  }
  return answer.data;
}

/** A call acting on the console, whose 403 names a permission the operator may well hold in the application they are
 *  looking at: `lead` says what the console is asked for, before its refusal. */
export async function refusedByConsole<T>(lead: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'forbidden') throw error;
    throw new ApiError(`${lead} The console refused: ${error.message}.`, error.code, error.details);
  }
}

export interface SubscriptionSink<T> {
  next: (data: T) => void;
  /** The stream ended: refused or closed (`failed`), or completed by the server (a range's end reached). */
  end: (message: string, failed: boolean) => void;
}

/** graphql-ws on `/graphql`, the credentials in `connection_init`'s payload; returns the unsubscribe. The server asks for
 *  the credentials again as the stream goes on (docs/audit.md): when it refuses the access token (expired), the session is
 *  renewed and the subscription asked again with `variables()` as they are then, so that the caller resumes where it was;
 *  so is a connection refused for it, once. It does not reconnect otherwise: `end` says why it stopped. */
export function subscribe<T>(query: string, variables: () => Record<string, unknown>, scope: RequestScope, sink: SubscriptionSink<T>): () => void {
  const config = readConfig();
  // Disposing completes the subscription: that end is the caller's own (or a renewal's), not news to hand back. The first
  // end is the news: a refusal's errors come before the completion that follows them.
  let stopped = false;
  let stopAttempt = () => undefined;
  const end = (message: string, failed: boolean) => {
    if (stopped) return;
    stopped = true;
    sink.end(message, failed);
  };
  const resume = (refused: Session) => {
    stopAttempt();
    renewRefused(config, refused).then(
      () => {
        if (!stopped) attempt(true);
      },
      (error: unknown) => end(error instanceof Error ? error.message : String(error), true),
    );
  };
  // `renewed`: its token was renewed for it, so a refusal at connection means renewal does not mend it.
  const attempt = (renewed: boolean) => {
    let session: Session | null = null;
    let current = true;
    const client = createClient({
      url: `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`,
      connectionParams: async () => {
        session = await liveSession(config);
        return credentialHeaders(session, scope);
      },
      retryAttempts: 0,
    });
    const release = client.subscribe<T>(
      { query, variables: variables() },
      {
        next: (result: FormattedExecutionResult<T>) => {
          if (!current) return;
          const [error] = result.errors ?? [];
          if (error === undefined) {
            if (result.data != null) sink.next(result.data);
          } else if (error.extensions?.code === 'unauthenticated' && session !== null) resume(session);
          else end(error.message, true);
        },
        error: (error: unknown) => {
          if (!current) return;
          if (!renewed && session !== null && refusedToken(error)) resume(session);
          else end(streamFailure(error), true);
        },
        complete: () => {
          if (current) end('The live stream ended.', false);
        },
      },
    );
    stopAttempt = () => {
      current = false;
      release();
      void client.dispose();
    };
  };
  attempt(false);
  return () => {
    stopped = true;
    stopAttempt();
  };
}

/** The connection refused for its access token (close 4403, reason `unauthenticated: …`): expired by the server's clock
 *  while the browser's gave it more time. */
function refusedToken(error: unknown): boolean {
  return error instanceof CloseEvent && error.code === (CloseCode.Forbidden as number) && error.reason.startsWith('unauthenticated');
}

/** graphql-ws hands over the operation's errors, the socket's CloseEvent, or an Error. */
function streamFailure(error: unknown): string {
  if (Array.isArray(error)) return (error as readonly { readonly message: string }[])[0]?.message ?? 'The server refused the live stream.';
  if (error instanceof CloseEvent) return error.reason === '' ? `The live stream was closed (code ${error.code}).` : error.reason;
  return error instanceof Error ? error.message : 'The live stream could not be opened.';
}
