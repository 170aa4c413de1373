import { randomUUID } from 'node:crypto';
import type { KoaContextWithOIDC } from 'oidc-provider';

/** routes.ts copies Fastify's X-Request-Id onto the OP's answer. */
export const opRequestId = (ctx: KoaContextWithOIDC | undefined): string => ctx?.response.get('x-request-id') || randomUUID();
