import { AsyncLocalStorage } from 'node:async_hooks';
import { isIP } from 'node:net';
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

/** An X-Forwarded-For entry's address, without the port some proxies add (`203.0.113.9:4711`, `[2001:db8::1]:443`). */
const FORWARDED_ENTRY = /^(?:\[([0-9a-fA-F:.]+)\]|(\d{1,3}(?:\.\d{1,3}){3}))(?::\d{1,5})?$/;

/** request.ip as a trusted proxy's X-Forwarded-For wrote it; an entry that is no address counts as the proxy's, or its
 *  text would be a fresh counter. */
export function clientAddress(request: FastifyRequest): string {
  if (isIP(request.ip) !== 0) return request.ip;
  const match = FORWARDED_ENTRY.exec(request.ip);
  const address = match?.[1] ?? match?.[2];
  return address !== undefined && isIP(address) !== 0 ? address : (request.socket.remoteAddress ?? request.ip);
}

/** Counted by rate limits, throttle, lockout and 401 bursts: IPv6 as its /64, which one host commonly holds. */
export const guessingAddress = (request: FastifyRequest): string => normalizeIP(clientAddress(request));
