// The orchestrator's probes (/healthz, /readyz) and /metrics: outside the rate limit and the request log.
import type { FastifyInstance } from 'fastify';
import { hashApiKeySecret, secretMatches } from '../auth/api-key-secret.ts';
import { readinessCheck } from '../db/readiness.ts';
import { GatehouseError, toErrorBody } from '../errors.ts';
import { METRICS_CONTENT_TYPE, readMetrics } from '../observability/metrics.ts';
import { refuseOtherMethods } from '../rest/adapter.ts';
import type { Services } from '../services.ts';

const READY_PROBE_MS = 2_000;

// Not rate limited: behind a proxy they would spend every client's budget, and a 429 takes the instance out of service.
const PROBE = { config: { rateLimit: false }, logLevel: 'silent' } as const;

export function registerProbes(app: FastifyInstance, services: Pick<Services, 'config' | 'orm'>): void {
  app.get('/healthz', PROBE, async () => ({ status: 'ok' }));
  registerReadiness(app, services);
  registerMetrics(app, services.config.metricsToken);
  for (const url of ['/healthz', '/readyz', '/metrics']) refuseOtherMethods(app, url, ['GET'], { management: false });
}

/** The log says when the answer changes, not each time. */
function registerReadiness(app: FastifyInstance, { orm, config }: Pick<Services, 'config' | 'orm'>): void {
  const databaseAnswers = readinessCheck(orm, config.databaseUrl);
  let ready = true;
  app.get('/readyz', PROBE, async (_request, reply) => {
    try {
      await databaseAnswers(READY_PROBE_MS);
      if (!ready) app.log.info('database answers again: ready');
      ready = true;
      return { status: 'ready' };
    } catch (error) {
      if (ready) app.log.warn({ err: error }, 'not ready: the database is unreachable or takes no writes');
      ready = false;
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
}

/** The scheme's name in any case (RFC 9110 11.1); the token as it was set, whatever its characters. */
const BEARER = /^bearer +(.*)$/i;

/** Behind METRICS_TOKEN when set. */
function registerMetrics(app: FastifyInstance, token: string | undefined): void {
  const tokenHash = token === undefined ? undefined : hashApiKeySecret(token);
  app.get('/metrics', PROBE, async (request, reply) => {
    const presented = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (tokenHash !== undefined && (presented === undefined || !secretMatches(presented, tokenHash))) {
      return reply.status(401).header('www-authenticate', 'Bearer realm="metrics"').send(toErrorBody(new GatehouseError('unauthenticated', 'GET /metrics needs the METRICS_TOKEN as a Bearer token')));
    }
    return reply.type(METRICS_CONTENT_TYPE).send(await readMetrics());
  });
}
