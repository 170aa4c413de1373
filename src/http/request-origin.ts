import { AsyncLocalStorage } from 'node:async_hooks';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';

export interface RequestOrigin {
  readonly ip: string;
  readonly userAgent: string | null;
}

/** The header is the client's to fill, and a record is kept for years. */
const USER_AGENT_MAX = 512;

/** Audit records are written by every adapter for many kinds of actor; the origin is the transport's fact, not the actor's. */
const current = new AsyncLocalStorage<RequestOrigin>();

export function withRequestOrigin(ip: string, userAgent: string | undefined, next: () => void): void {
  current.run({ ip, userAgent: userAgent === undefined || userAgent === '' ? null : userAgent.slice(0, USER_AGENT_MAX) }, next);
}

/** None outside a request (the bootstrap, a background job). */
export function currentRequestOrigin(): RequestOrigin | undefined {
  return current.getStore();
}

/** Counted by rate limits, throttle, lockout and 401 bursts: IPv6 as its /64, which one host commonly holds. */
export const guessingAddress = (request: FastifyRequest): string => normalizeIP(request.ip);
