import { AsyncLocalStorage } from 'node:async_hooks';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';

/** Where a request came from, as its audit records keep it. */
export interface RequestOrigin {
  readonly ip: string;
  readonly userAgent: string | null;
}

/** Longer user agents are cut: the header is the client's to fill, and a record is kept for years. */
const USER_AGENT_MAX = 512;

/**
 * The origin of the request being handled, for its audit records (src/domain/audit.ts): they are written by every
 * adapter (the management API, the OP, the hosted pages) on behalf of many kinds of actor, and the origin is the
 * transport's fact, not the actor's.
 */
const current = new AsyncLocalStorage<RequestOrigin>();

/** Runs `next` (the rest of a request's handling) with the request's origin. */
export function withRequestOrigin(ip: string, userAgent: string | undefined, next: () => void): void {
  current.run({ ip, userAgent: userAgent === undefined || userAgent === '' ? null : userAgent.slice(0, USER_AGENT_MAX) }, next);
}

/** The origin of the request being handled; none outside a request (the bootstrap, a background job). */
export function currentRequestOrigin(): RequestOrigin | undefined {
  return current.getStore();
}

/**
 * The client address a request is counted against: by the rate limits, the sign-in throttle, the lockout
 * (src/domain/sign-in/lockout.ts) and the log's bursts of 401. The request's (TRUST_PROXY decides whether
 * X-Forwarded-For is believed), an IPv6 address as its /64, which one host commonly holds.
 */
export const guessingAddress = (request: FastifyRequest): string => normalizeIP(request.ip);
