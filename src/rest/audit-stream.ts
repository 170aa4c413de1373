import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../context.ts';
import { OPERATION_PERMISSIONS } from '../auth/operation-permissions.ts';
import { authorize, pathTenant } from '../graphql/authorize-operation.ts';
import { followAuditLog, streamStart, type AuditSink, type AuditWaker } from '../domain/audit-stream.ts';
import type { AuditFilter } from '../domain/audit-search.ts';
import { invalid } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { refuseOtherMethods } from './adapter.ts';

/**
 * `GET /audit-logs/stream` in its three path forms, as Server-Sent Events (API.md: `event: audit`, `id:` the record
 * id, `data:` the record as `GET /audit-logs/{recordId}` shows it). A stream holds its connection for hours, which a
 * GraphQL operation run by the route table cannot: it is a route of its own, with the list's permission and scope
 * (`Query.auditLogs`' rule), its filters, and the domain's reading (src/domain/audit-stream.ts).
 */

/** Bytes a client may leave unread before it is dropped rather than buffered for. */
const MAX_UNREAD_BYTES = 1 << 20;
/** How long a client may read nothing while records wait for it. */
const MAX_STALL_MS = 30_000;

const FILTERS = ['actor', 'action', 'target', 'from', 'to'] as const;
const PATHS = ['/audit-logs/stream', '/applications/:appId/audit-logs/stream', '/applications/:appId/tenants/:tenantId/audit-logs/stream'];

function dateParameter(name: string, value: string): Date {
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(date.getTime())) throw invalid(name, `${name} must be an ISO 8601 date-time`);
  return date;
}

/** The filters of the query string, as the list takes them; any other parameter is refused. */
function filterOf(request: FastifyRequest): AuditFilter {
  const query = request.query as Record<string, string | string[] | undefined>;
  const filter: AuditFilter = {};
  for (const [name, value] of Object.entries(query)) {
    if (!(FILTERS as readonly string[]).includes(name)) throw invalid(/^[A-Za-z][A-Za-z0-9_]*$/.test(name) ? name : 'query', `Unknown query parameter ${JSON.stringify(name)}`);
    if (typeof value !== 'string') throw invalid(name, `${name} may be given once`);
    if (name === 'from' || name === 'to') filter[name] = dateParameter(name, value);
    else filter[name as 'actor' | 'action' | 'target'] = value;
  }
  return filter;
}

function pathIds(request: FastifyRequest): { appId: string | undefined; tenantId: string | undefined } {
  const { appId, tenantId } = request.params as { appId?: string; tenantId?: string };
  if (appId !== undefined && !isUuid(appId)) throw invalid('appId', 'appId must be a UUIDv7');
  if (tenantId !== undefined && !isUuid(tenantId)) throw invalid('tenantId', 'tenantId must be a UUIDv7');
  return { appId: appId?.toLowerCase(), tenantId: tenantId?.toLowerCase() };
}

/** An SSE connection: records as events, heartbeats as comments; a client that reads too little is dropped. */
class EventStream implements AuditSink {
  readonly #reply: FastifyReply;
  #closed = false;

  constructor(reply: FastifyReply, heartbeatMs: number, onClose: () => void) {
    this.#reply = reply;
    const raw = reply.raw;
    const heartbeat = setInterval(() => this.#write(': heartbeat\n\n'), heartbeatMs);
    raw.once('close', () => {
      this.#closed = true;
      clearInterval(heartbeat);
      onClose();
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  async send(record: { id: string }): Promise<void> {
    if (this.#write(`event: audit\nid: ${record.id}\ndata: ${JSON.stringify(record)}\n\n`)) return;
    // The socket's buffer is full: wait for the client to read, a while, then give it up.
    const raw = this.#reply.raw;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        raw.off('drain', done);
        raw.off('close', done);
        resolve();
      };
      const timer = setTimeout(() => {
        this.end();
        done();
      }, MAX_STALL_MS);
      raw.once('drain', done);
      raw.once('close', done);
    });
  }

  end(): void {
    this.#closed = true;
    this.#reply.raw.destroy();
  }

  /** Writes unless closed; false when the client must read first. Past MAX_UNREAD_BYTES unread, the client is dropped. */
  #write(text: string): boolean {
    if (this.#closed) return true;
    const raw = this.#reply.raw;
    if (raw.writableLength > MAX_UNREAD_BYTES) {
      this.end();
      return true;
    }
    return raw.write(text);
  }
}

export function registerAuditStream(
  app: FastifyInstance,
  deps: { contextFor(request: FastifyRequest): Promise<RequestContext>; waker: AuditWaker; heartbeatMs: number },
): void {
  const open = new Set<EventStream>();
  // A stream never ends on its own: the shutdown ends them, or it would wait for them.
  app.addHook('preClose', async () => {
    for (const stream of open) stream.end();
  });
  const rule = OPERATION_PERMISSIONS['Query.auditLogs'];
  for (const url of PATHS) {
    app.get(`/api/v1${url}`, { config: { authenticated: true } }, async (request, reply) => {
      const context = await deps.contextFor(request);
      const { appId, tenantId } = pathIds(request);
      await authorize(context.principal, rule, [pathTenant(tenantId)]);
      const filter = filterOf(request);
      const scope = await context.scope({ applicationId: appId, tenantId });
      const lastEventId = request.headers['last-event-id'];
      if (Array.isArray(lastEventId)) throw invalid('Last-Event-ID', 'Last-Event-ID may be given once');
      const start = await streamStart(scope, filter, lastEventId);
      reply.hijack();
      // The headers Fastify's hooks set so far (request id, rate limit) go out too: a hijacked reply sends only what it writes.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // nginx buffers responses unless told not to.
        'x-accel-buffering': 'no',
      });
      reply.raw.write(': stream open\n\n');
      const stream = new EventStream(reply, deps.heartbeatMs, () => open.delete(stream));
      open.add(stream);
      try {
        await followAuditLog(scope, filter, start, stream, deps.waker);
      } catch (error) {
        request.log.warn({ err: error }, 'audit stream stopped');
      } finally {
        stream.end();
      }
    });
    refuseOtherMethods(app, `/api/v1${url}`, ['GET']);
  }
}
