import { writeFileSync } from 'node:fs';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildSchema } from '../../src/graphql/schema.ts';
import { buildOpenApiDocument } from '../../src/rest/openapi.ts';

export const SCHEMA_FILE = new URL('./src/schema.ts', import.meta.url);

const HEADER = `/**
 * The REST API's types, generated from its OpenAPI document by openapi-typescript: \`npm run client:generate\`.
 * Do not edit: the suite fails when it no longer matches the document (test/api/typed-client.test.ts).
 */

`;

/** The types of the OpenAPI document the service serves at /api/v1/openapi.json (its server URL aside). */
export async function generateClientTypes(): Promise<string> {
  // As served: JSON, not the builder's objects.
  const document = JSON.parse(JSON.stringify(buildOpenApiDocument(buildSchema(), 'http://localhost:3000'))) as OpenAPI3;
  return HEADER + astToString(await openapiTS(document, { silent: true }));
}

if (import.meta.main) writeFileSync(SCHEMA_FILE, await generateClientTypes());
