// Credentials → Principal for the authenticated routes: the hook that checks them, the stores it reads, the challenge of a 401 or 403.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiKeyCache } from '../auth/api-key-cache.ts';
import { authenticate, BearerTokenRefused, readCredentials, type CredentialSource, type CredentialStore } from '../auth/authenticate.ts';
import type { Principal } from '../auth/principal.ts';
import { readsAfterCall } from '../auth/reads-after-call.ts';
import { createRequestContext, type RequestContext } from '../context.ts';
import type { CredentialHeaders } from '../graphql/websocket.ts';
import type { Services } from '../services.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Credentials are checked before the rate limit counts them. */
    authenticated?: boolean;
    /** Credentials sent are checked for the rate limit's bucket alone: the answer is the same without them (a 405, the API description). */
    countsCredentials?: boolean;
  }
  interface FastifyRequest {
    /** A refusal, or an unexpected failure (the database down). */
    authentication?: { principal: Principal } | { error: unknown };
  }
}

export interface Authentication {
  /** `database`: past the caches, which lag the database by Redis's delivery. */
  readonly headers: (headers: CredentialHeaders, source?: CredentialSource) => Promise<Principal>;
  readonly request: (request: FastifyRequest, source?: CredentialSource) => Promise<Principal>;
  /** An authenticated route's request context; its refused authentication is thrown here. */
  readonly contextFor: (request: FastifyRequest) => Promise<RequestContext>;
  /** For a request no route takes: its credentials, if it sends any, checked for the rate limit's bucket alone. */
  readonly countedCredentials: (request: FastifyRequest) => Promise<void>;
}

/** Hooks of the application level: they run before the rate limiter's route-level one, which then buckets by the outcome. */
export function registerAuthentication(app: FastifyInstance, services: Services): Authentication {
  const headers = authenticatorOf(services);
  const request = (incoming: FastifyRequest, source?: CredentialSource) => headers(incoming.headers, source);
  const check = async (incoming: FastifyRequest) => {
    try {
      incoming.authentication = { principal: await request(incoming) };
    } catch (error) {
      // An authenticated route's handler answers any failure (contextFor), after the rate limit counted it against the address.
      incoming.authentication = { error };
    }
  };
  // A 404 or 405 is the same answer either way; the credentials only choose the bucket, which API.md makes theirs.
  const countedCredentials = async (incoming: FastifyRequest) => {
    if (sendsCredentials(incoming)) await check(incoming);
  };
  app.addHook('onRequest', async (incoming) => {
    const { config } = incoming.routeOptions;
    if (config.authenticated === true) return check(incoming);
    if (incoming.is404 || config.countsCredentials === true) return countedCredentials(incoming);
  });
  answerAsCredentials(app);
  const contextFor = async (incoming: FastifyRequest) => {
    const authentication = incoming.authentication;
    if (authentication === undefined) throw new Error(`${incoming.routeOptions.url} is not an authenticated route`);
    if ('error' in authentication) throw authentication.error;
    return createRequestContext(services, incoming.id, authentication.principal);
  };
  return { headers, request, contextFor, countedCredentials };
}

/** Without them there is nothing to check, and the bucket is the address's. */
const sendsCredentials = (request: FastifyRequest): boolean => request.headers['x-api-key'] !== undefined || request.headers.authorization !== undefined;

/** A stream outlives its request: its credentials are checked again before each event (src/domain/audit/stream.ts). */
function authenticatorOf(services: Services): Authentication['headers'] {
  const stores: Record<CredentialSource, CredentialStore> = {
    cache: { orm: services.orm, cache: services.apiKeys },
    // A lifetime of 0 keeps nothing: every question reaches the database.
    database: { orm: services.orm, cache: new ApiKeyCache(services.invalidations, 0) },
  };
  // The streams of one credential woken by one record share a database read begun after each asked.
  const databaseReads = readsAfterCall<Principal>();
  return async (headers, source = 'cache') => {
    const credentials = readCredentials(headers);
    const read = () => authenticate(stores[source], services.signingKeys, credentials, services.surfaces);
    if (source === 'cache') return read();
    const key = createHash('sha256').update(JSON.stringify([credentials.apiKey, credentials.bearer, credentials.application])).digest('base64url');
    return databaseReads(key, read);
  };
}

/**
 * A 401 says how to authenticate (RFC 7235 3.1, RFC 6750 3); `insufficient_scope` on a Bearer 403 (RFC 6750 3.1).
 * An answer to credentials may carry a secret: no cache keeps it (RFC 9111 lets them keep an answer that says nothing).
 */
function answerAsCredentials(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.routeOptions.config.authenticated !== true) return done(null, payload);
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    if (reply.statusCode === 401) {
      const outcome = request.authentication;
      const tokenRefused = outcome !== undefined && 'error' in outcome && outcome.error instanceof BearerTokenRefused;
      reply.header('www-authenticate', `Bearer realm="gatehouse"${tokenRefused ? ', error="invalid_token"' : ''}`);
    } else if (reply.statusCode === 403 && request.headers.authorization !== undefined) {
      reply.header('www-authenticate', 'Bearer realm="gatehouse", error="insufficient_scope"');
    }
    done(null, payload);
  });
}
