import { createClient, type FormattedExecutionResult } from 'graphql-ws';
import type { GraphQLFormattedError } from 'graphql';
import WebSocket from 'ws';

/**
 * GraphQL subscriptions in tests: the audit subscription both transports run, its records in results, and a GraphQL
 * over WebSocket client (graphql-ws's own, on `ws`) that keeps what it received.
 */

/** `subscription { auditLogs }` with every argument a variable. */
export const AUDIT_SUBSCRIPTION = `subscription ($appId: UUID, $tenantId: UUID, $action: String, $after: UUID, $from: DateTime, $to: DateTime) {
  auditLogs(appId: $appId, tenantId: $tenantId, action: $action, after: $after, from: $from, to: $to) { id action tenantId target { id } }
}`;

export interface SubscribedRecord {
  readonly id: string;
  readonly action: string;
  readonly tenantId: string | null;
  readonly target: { readonly id: string | null };
}

/** The audit records of a subscription's results (each a `next` payload); a refusal, the last result, is none. */
export const subscribedRecords = (results: readonly FormattedExecutionResult[]): SubscribedRecord[] =>
  results.flatMap((result) => (result.data == null ? [] : [(result.data as { auditLogs: SubscribedRecord }).auditLogs]));

/** The errors among a subscription's results: the refusal that ended it. */
export const subscriptionErrors = (results: readonly FormattedExecutionResult[]): readonly GraphQLFormattedError[] => results.flatMap((result) => result.errors ?? []);

/** Waits until `done()` holds (generously: a loaded machine), else throws saying what did not come. */
export async function eventually(done: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The server's acknowledgement of `connection_init`; a connection refused instead fails at once, saying how it closed. */
export async function acknowledgement(socket: GraphQLSocket): Promise<void> {
  await eventually(() => socket.acknowledged || socket.closed !== undefined, 'the connection acknowledgement');
  if (!socket.acknowledged) throw new Error(`the connection was refused rather than acknowledged: closed ${JSON.stringify(socket.closed)}`);
}

export interface SocketClosed {
  readonly code: number;
  readonly reason: string;
}

export interface SocketSubscription {
  /** The `next` payloads received, in order. */
  readonly results: FormattedExecutionResult[];
  /** The `error` message's errors, when the server refused the operation. */
  readonly errors: readonly GraphQLFormattedError[] | undefined;
  /** Whether the server completed it. */
  readonly completed: boolean;
  /** Whether it ended: completed, refused, or its socket closed. */
  readonly ended: boolean;
  unsubscribe(): void;
}

export interface GraphQLSocket {
  /** Whether the server acknowledged `connection_init`. */
  readonly acknowledged: boolean;
  /** How the socket closed, once it has. */
  readonly closed: SocketClosed | undefined;
  subscribe(query: string, variables?: Record<string, unknown>): SocketSubscription;
  /** Resolves once the socket has closed (the server may not have handled its close yet). */
  dispose(): Promise<void>;
}

/** A connection to `url` (ws://…/graphql) that sends `connection_init` at once, and never reconnects. */
export function openGraphQLSocket(url: string, options: { connectionParams?: Record<string, unknown>; headers?: Record<string, string> } = {}): GraphQLSocket {
  let acknowledged = false;
  let closed: SocketClosed | undefined;
  const { headers } = options;
  const client = createClient({
    url,
    lazy: false,
    retryAttempts: 0,
    webSocketImpl:
      headers === undefined
        ? WebSocket
        : class extends WebSocket {
            constructor(address: string, protocols?: string | string[]) {
              super(address, protocols, { headers });
            }
          },
    ...(options.connectionParams === undefined ? {} : { connectionParams: options.connectionParams }),
    onNonLazyError: () => undefined,
    on: {
      connected: () => (acknowledged = true),
      closed: (event) => {
        const { code, reason } = event as SocketClosed;
        closed = { code, reason };
      },
    },
  });
  return {
    get acknowledged() {
      return acknowledged;
    },
    get closed() {
      return closed;
    },
    subscribe(query, variables = {}) {
      const results: FormattedExecutionResult[] = [];
      let errors: readonly GraphQLFormattedError[] | undefined;
      let completed = false;
      let ended = false;
      const unsubscribe = client.subscribe<Record<string, unknown>, Record<string, unknown>>(
        { query, variables },
        {
          next: (result) => void results.push(result),
          error: (error) => {
            if (Array.isArray(error)) errors = error as GraphQLFormattedError[];
            ended = true;
          },
          complete: () => {
            completed = true;
            ended = true;
          },
        },
      );
      return {
        results,
        get errors() {
          return errors;
        },
        get completed() {
          return completed;
        },
        get ended() {
          return ended || closed !== undefined;
        },
        unsubscribe,
      };
    },
    dispose: async () => {
      await client.dispose();
      await eventually(() => closed !== undefined, 'the disposed socket’s close');
    },
  };
}
