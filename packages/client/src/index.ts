import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.ts';

export type { components, operations, paths } from './schema.ts';

export interface GatehouseClientOptions {
  /** The service's address (its `PUBLIC_URL`), e.g. `http://localhost:3000`; the client adds `/api/v1`. */
  readonly baseUrl: string;
  /** A management API key (`X-API-Key`). */
  readonly apiKey?: string;
  /** An access token of the service's issuer (`Authorization: Bearer`); with an API key, it narrows the key to its user. */
  readonly accessToken?: string;
  readonly fetch?: typeof fetch;
}

/**
 * A typed client of the management API: every path, parameter, body and answer of the OpenAPI document, checked by
 * tsc. `const { data, error, response } = await gatehouse.GET('/users/{userId}', { params: { path: { userId } } })`.
 */
export function createGatehouseClient(options: GatehouseClientOptions): Client<paths> {
  const headers: Record<string, string> = {};
  if (options.apiKey !== undefined) headers['x-api-key'] = options.apiKey;
  if (options.accessToken !== undefined) headers['authorization'] = `Bearer ${options.accessToken}`;
  return createClient<paths>({
    baseUrl: `${options.baseUrl.replace(/\/+$/, '')}/api/v1`,
    headers,
    // A list parameter as the API reads it (`ids=a,b`): a repeated parameter is refused.
    querySerializer: { array: { style: 'form', explode: false } },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
}
