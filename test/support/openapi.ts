import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import type { OpenApiDocument, OpenApiMethod, OpenApiResponse } from '../../src/rest/openapi.ts';
import type { ExpandedRoute } from '../../src/rest/routes.ts';
import type { HttpResponse } from './http.ts';

export const toOpenApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const pointer = (...segments: string[]) => segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/**
 * The document leaves response objects open (new fields ship without a new version); a REST response is exactly
 * the operation's selection, so for these tests every object schema with properties is closed.
 */
function closed<T>(node: T): T {
  if (Array.isArray(node)) node.forEach(closed);
  else if (typeof node === 'object' && node !== null) {
    const record = node as Record<string, unknown>;
    const type = record['type'];
    if (record['properties'] !== undefined && (type === 'object' || (Array.isArray(type) && type.includes('object')))) {
      record['additionalProperties'] ??= false;
    }
    Object.values(record).forEach(closed);
  }
  return node;
}

/** The headers the contract gives a meaning: a response that carries one documents it for its status. */
const CONTRACT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'idempotent-replayed', 'www-authenticate'];

/** Checks real responses against the responses the served OpenAPI document declares. */
export class DocumentedResponses {
  readonly document: OpenApiDocument;
  private readonly ajv: Ajv2020;

  constructor(document: OpenApiDocument) {
    this.document = document;
    this.ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true });
    addFormats.default(this.ajv);
    this.ajv.addSchema(closed(structuredClone(document)), 'openapi');
  }

  /** The documented response of `method path` for `status`, its `$ref` resolved; undefined when not documented. */
  response(method: OpenApiMethod, path: string, status: number): OpenApiResponse | undefined {
    const documented = this.document.paths[path]?.[method]?.responses[String(status)];
    if (documented === undefined || !('$ref' in documented)) return documented;
    return this.document.components.responses[documented.$ref.split('/').pop() as string];
  }

  /** The validator of the schema at `segments` of the document (`paths`, a path, …): a part no response body holds. */
  at(...segments: string[]) {
    return this.ajv.compile({ $ref: `openapi#/${pointer(...segments)}` });
  }

  /** The validator of the documented JSON body of `method path` for `status`. */
  body(method: OpenApiMethod, path: string, status: number) {
    const documented = this.document.paths[path]?.[method]?.responses[String(status)];
    expect(documented, `${method.toUpperCase()} ${path} documents ${status}`).toBeDefined();
    const location =
      documented !== undefined && '$ref' in documented
        ? `${documented.$ref.slice('#/'.length)}/content/${pointer('application/json')}/schema`
        : pointer('paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema');
    return this.ajv.compile({ $ref: `openapi#/${location}` });
  }

  /**
   * Asserts that a real response is documented: its status is one `method path` declares, the headers the document
   * marks required are present, each header of the contract it carries is declared for its status, and its body
   * matches the declared schema (or is empty where none is declared).
   */
  expect(method: OpenApiMethod, path: string, response: Pick<HttpResponse, 'status' | 'body' | 'headers'>, label = `${method.toUpperCase()} ${path}`) {
    const documented = this.response(method, path, response.status);
    expect(documented, `${label}: status ${response.status} is not documented (${JSON.stringify(response.body)})`).toBeDefined();
    for (const [name, header] of Object.entries(documented?.headers ?? {})) {
      const definition = this.document.components.headers[header.$ref.split('/').pop() as string];
      if (definition?.required === true) expect(response.headers.get(name), `${label}: header ${name}`).not.toBeNull();
    }
    const declared = Object.keys(documented?.headers ?? {}).map((name) => name.toLowerCase());
    for (const name of CONTRACT_HEADERS) {
      if (response.headers.get(name) !== null) expect(declared, `${label}: a ${response.status} with ${name}`).toContain(name);
    }
    if (documented?.content === undefined) {
      expect(response.body, `${label}: a ${response.status} has no body`).toBe('');
      return;
    }
    const validate = this.body(method, path, response.status);
    expect(validate(response.body), `${label} ${response.status}: ${JSON.stringify(validate.errors, null, 1)}`).toBe(true);
  }

  /** The same, for a route of the table. */
  expectRoute(route: ExpandedRoute, response: Pick<HttpResponse, 'status' | 'body' | 'headers'>, label?: string) {
    this.expect(route.method.toLowerCase() as OpenApiMethod, toOpenApiPath(route.url), response, label);
  }
}

/**
 * The routes of Fastify's `printRoutes({ commonPrefix: false })`, each full path with its methods (405 answers
 * included: a path's refused methods are routes too). Throws on a line it cannot read, so no route goes unseen.
 */
export function printedRoutes(tree: string): { url: string; methods: string[] }[] {
  const parents: string[] = [];
  const routes: { url: string; methods: string[] }[] = [];
  for (const line of tree.split('\n').filter((each) => each.trim() !== '')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (match === null) throw new Error(`printRoutes: unreadable line ${JSON.stringify(line)}`);
    parents.length = (match[1] as string).length / 4;
    parents.push(match[2] as string);
    if (match[3] !== undefined) routes.push({ url: parents.join(''), methods: match[3].split(', ') });
  }
  return routes;
}
