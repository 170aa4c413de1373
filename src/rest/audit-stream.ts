import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RequestContext } from '../context.ts';
import { OPERATION_PERMISSIONS } from '../auth/operation-permissions.ts';
import { authorize, authorizedNow, pathTenant, refusalNow } from '../graphql/authorize-operation.ts';
import type { CredentialSource } from '../auth/authenticate.ts';
import type { Principal } from '../auth/principal.ts';
import { followAuditLog, streamStart, subscriptionResumption, type AuditSink, type AuditWaker } from '../domain/audit/stream.ts';
import type { AuditFilter } from '../domain/audit/search.ts';
import type { GraphQLScalarType } from 'graphql';
import { DateTime, UUID } from '../../resolvers/common.ts';
import { invalid } from '../errors.ts';
import { invalidInput } from '../graphql/input-refusals.ts';
import { isUuid } from '../ids.ts';
import { refuseEmptyParameters, refuseOtherMethods } from './adapter.ts';
import type { EventStreams } from '../http/event-stream.ts';

/**
 * A route of its own (a stream holds its connection for hours, which a route-table operation cannot), with
 * `Query.auditLogs`' rule and filters and the domain's reading (src/domain/audit/stream.ts).
 */

const FILTERS = ['actor', 'apiKey', 'action', 'target', 'from', 'to'] as const;
/** Where a stream opened from a URL alone resumes (an EventSource's first request can send no header): the
 *  subscription's arguments. */
const RESUMPTION = ['after', 'resumeAt'] as const;
const PATHS = ['/audit-logs/stream', '/applications/:appId/audit-logs/stream', '/applications/:appId/tenants/:tenantId/audit-logs/stream'] as const;

/**
 * What the OpenAPI document says of the stream (src/rest/openapi.ts), from what serves it: each path is the list's
 * (`GET /audit-logs`, its path form) with `/stream`, whose tag, path ids, filters' parameters, record and refusals
 * the document takes; the permissions are `coordinate`'s rule, the one enforced here.
 */
export const AUDIT_STREAM = {
  operationId: 'StreamAuditLogs',
  coordinate: 'Query.auditLogs',
  paths: PATHS,
  filters: FILTERS,
  resumption: RESUMPTION,
  summary: 'Follow audit records as they commit (Server-Sent Events)',
  description:
    'Answers `text/event-stream`: the records of the scope as they commit, in that order, with the list’s filters. Each ' +
    'record is an `event: audit` whose `id:` is the record’s id and whose `data:` is the record as JSON, as ' +
    '`GET /audit-logs/{recordId}` shows it. A comment `: heartbeat` comes every `AUDIT_STREAM_HEARTBEAT_MS` (15 s by ' +
    'default); once the stream has read past records its filters hide, a heartbeat also carries an `id:` without data, a ' +
    'signed token of its place. Resume with `Last-Event-ID`: the last `id:` received, a record’s or a heartbeat’s (an ' +
    'EventSource sends it itself), or, where no header can be set, with `after` (a record’s id) or `resumeAt` (either), ' +
    'which a `Last-Event-ID` overrides, so an EventSource reconnecting to the same URL resumes where it was. With `to`, the stream ends with `event: end` (data `{"to": …}`) once every record ' +
    'before `to` is sent; without it, it follows the log until its client leaves, its credentials no longer may read it ' +
    '(they are asked again as it runs), or the server ends it. A client that leaves over 1 MiB unread, or reads nothing ' +
    'for 30 s while records wait, is disconnected. A credential holds at most `STREAMS_PER_CREDENTIAL` (20 by default) ' +
    'streams open on an instance: one more is 429. The GraphQL form is `subscription { auditLogs }` (docs/audit.md).',
  lastEventId:
    'Resume after this: the last `id:` received, a record’s id or a heartbeat’s token. One naming no record of the ' +
    'stream’s scope (another tenant’s, one deleted by retention, an altered token) is 422 with `field` `Last-Event-ID`. ' +
    'Without it, the stream starts after the last record committed as it opens (with `from`: at the first record at or ' +
    'after `from`).',
  after: 'Start after this record (its id), as `Last-Event-ID` would; a `Last-Event-ID` given overrides it. Not with `resumeAt`.',
  resumeAt: 'Start where a stream was: a heartbeat’s token or a record’s id, as `Last-Event-ID` would; a `Last-Event-ID` given overrides it. Not with `after`.',
} as const;

/** The list's scalars and words, so `from`/`to` and `apiKey` read the same on every transport (an offset required, no
 *  rolled-over day; a UUIDv7 in either case). */
function scalarParameter<T>(name: string, value: string, scalar: GraphQLScalarType<T, unknown>): T {
  try {
    return scalar.parseValue(value);
  } catch {
    const refusal = invalidInput([name], scalar);
    throw invalid(name, refusal.message);
  }
}

/** Any other parameter is refused. */
function filterOf(request: FastifyRequest): AuditFilter {
  const query = request.query as Record<string, string | string[] | undefined>;
  const filter: AuditFilter = {};
  for (const [name, value] of Object.entries(query)) {
    if (!([...FILTERS, ...RESUMPTION] as readonly string[]).includes(name)) throw invalid(/^[A-Za-z][A-Za-z0-9_]*$/.test(name) ? name : 'query', `Unknown query parameter ${JSON.stringify(name)}`);
    if (typeof value !== 'string') throw invalid(name, `${name} may be given once`);
    if ((RESUMPTION as readonly string[]).includes(name)) continue;
    if (name === 'from' || name === 'to') filter[name] = scalarParameter(name, value, DateTime);
    else if (name === 'apiKey') filter.apiKey = scalarParameter(name, value, UUID);
    else filter[name as 'actor' | 'action' | 'target'] = value;
  }
  return filter;
}

/** The header first: an EventSource sends it on reconnecting to the URL that named where it first started. */
function resumptionOf(request: FastifyRequest): [string | undefined, string] {
  const lastEventId = request.headers['last-event-id'];
  if (Array.isArray(lastEventId)) throw invalid('Last-Event-ID', 'Last-Event-ID may be given once');
  // Empty, it names no event (an `id:` line without a value resets a client's last id): the URL's place stands.
  if (lastEventId !== undefined && lastEventId !== '') return [lastEventId, 'Last-Event-ID'];
  const { after, resumeAt } = request.query as { after?: string; resumeAt?: string };
  if (after !== undefined && !isUuid(after)) throw invalid('after', 'Invalid after: expected a UUIDv7 (Gatehouse ids are UUIDv7)');
  return subscriptionResumption(after, resumeAt);
}

function pathIds(request: FastifyRequest): { appId: string | undefined; tenantId: string | undefined } {
  const { appId, tenantId } = request.params as { appId?: string; tenantId?: string };
  if (appId !== undefined && !isUuid(appId)) throw invalid('appId', 'Invalid appId: expected a UUIDv7 (Gatehouse ids are UUIDv7)');
  if (tenantId !== undefined && !isUuid(tenantId)) throw invalid('tenantId', 'Invalid tenantId: expected a UUIDv7 (Gatehouse ids are UUIDv7)');
  return { appId: appId?.toLowerCase(), tenantId: tenantId?.toLowerCase() };
}

export function registerAuditStream(
  app: FastifyInstance,
  deps: {
    contextFor(request: FastifyRequest): Promise<RequestContext>;
    /** Through the caches before each record, from the database before a read's records (AuditSink's `confirm`). */
    authenticateAgain(request: FastifyRequest, source: CredentialSource): Promise<Principal>;
    waker: AuditWaker;
    streams: EventStreams;
  },
): void {
  const rule = OPERATION_PERMISSIONS[AUDIT_STREAM.coordinate];
  for (const url of PATHS) {
    app.get(`/api/v1${url}`, { config: { authenticated: true }, preParsing: refuseEmptyParameters }, async (request, reply) => {
      const context = await deps.contextFor(request);
      const { appId, tenantId } = pathIds(request);
      await authorize(context.principal, rule, [pathTenant(tenantId)]);
      const filter = filterOf(request);
      const scope = await context.scope({ applicationId: appId, tenantId });
      const start = await streamStart(scope, filter, ...resumptionOf(request));
      const stream = deps.streams.open(reply, deps.streams.take(context.principal));
      const again = (source: CredentialSource) => () => deps.authenticateAgain(request, source);
      const refusal = (source: CredentialSource) => refusalNow(again(source), rule, [pathTenant(tenantId)]);
      const sink: AuditSink = {
        get closed() {
          return stream.closed;
        },
        confirm: () => authorizedNow(again('database'), rule, [pathTenant(tenantId)]),
        send: async (record) => {
          if ((await refusal('cache')) === undefined) return stream.send('audit', JSON.stringify(record), record.id);
          stream.finish();
        },
        reached: (token) => stream.resumeAt(token),
      };
      try {
        // An EventSource reconnects when an answer ends: `end` tells its client that nothing more will come.
        if ((await followAuditLog(scope, filter, start, sink, deps.waker)) === 'settled') await stream.send('end', JSON.stringify({ to: filter.to }));
      } catch (error) {
        request.log.warn({ err: error }, 'audit stream stopped');
      } finally {
        stream.finish();
      }
    });
    refuseOtherMethods(app, `/api/v1${url}`, ['GET'], { management: true });
  }
}
