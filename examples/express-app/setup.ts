/**
 * Creates what the sample needs in a Gatehouse application, through its management API and the typed client:
 * a permission, an API resource that defines it, a role that grants it, a tenant with a user who holds the role, and
 * a web OAuth client whose callback is this app's. Writes gatehouse.local.json for app.ts.
 *
 *   GATEHOUSE_API_KEY=ghk_… npm run example:setup
 *
 * Run again, it reuses what exists; the client's secret is rotated, since only gatehouse.local.json held the old one.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createGatehouseClient } from '@gatehouse/client';
import { appOrigin, CONFIG_FILE, noAnswer, SampleRefused, type SampleConfig } from './config.ts';

export interface SetupOptions {
  readonly gatehouseUrl: string;
  /** A key of the application with `app_admin`'s permissions (the one Gatehouse prints on its first start). */
  readonly apiKey: string;
  readonly appUrl: string;
}

export interface SetupResult {
  readonly config: SampleConfig;
  /** The demo user, who holds the role in the tenant; the password is set only when the user is created. */
  readonly user: { readonly id: string; readonly email: string; readonly password: string | undefined };
  readonly tenantId: string;
}

export const DEMO_EMAIL = 'demo@example.com';
const TENANT_SLUG = 'acme';
const PERMISSION = 'notes:read';
const API_IDENTIFIER = 'https://notes.example.com';
const ROLE_KEY = 'notes-reader';
const CLIENT_NAME = 'Express sample';

function ok<T>(what: string, answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data !== undefined) return answer.data;
  throw new SampleRefused(`${what}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
}

/** openid-client and the API's `iss` check compare it exactly; Gatehouse names its PUBLIC_URL at any address. */
async function issuerAt(gatehouseUrl: string): Promise<string> {
  const answer = await fetch(`${gatehouseUrl}/.well-known/openid-configuration`);
  if (!answer.ok) throw new SampleRefused(`read ${gatehouseUrl}/.well-known/openid-configuration: ${answer.status}`);
  const { issuer } = (await answer.json()) as { issuer: string };
  if (issuer !== gatehouseUrl) throw new SampleRefused(`Gatehouse at ${gatehouseUrl} names its issuer ${issuer}: set GATEHOUSE_URL to the service's PUBLIC_URL, ${issuer}`);
  return issuer;
}

export async function setUp(options: SetupOptions): Promise<SetupResult> {
  const { apiKey } = options;
  const issuer = await issuerAt(options.gatehouseUrl.replace(/\/+$/, ''));
  const appUrl = appOrigin(options.appUrl);
  const gatehouse = createGatehouseClient({ baseUrl: issuer, apiKey });
  const [application] = ok('list applications', await gatehouse.GET('/applications', {})).data;
  if (application === undefined) throw new SampleRefused('the key reaches no application');
  const appId = application.id;

  // 409: it exists already (a second run).
  const permission = await gatehouse.POST('/permissions', { body: { key: PERMISSION, description: 'Read the notes of the sample API' } });
  if (permission.response.status !== 409) ok('create the permission', permission);

  const resources = ok('list API resources', await gatehouse.GET('/api-resources', { params: { query: { pageSize: 100 } } })).data;
  if (!resources.some((resource) => resource.identifier === API_IDENTIFIER)) {
    ok('register the API', await gatehouse.POST('/api-resources', { body: { identifier: API_IDENTIFIER, name: 'Sample notes API', permissions: [PERMISSION] } }));
  }

  const roles = ok('list roles', await gatehouse.GET('/roles', { params: { query: { pageSize: 100 } } })).data;
  const role =
    roles.find((candidate) => candidate.key === ROLE_KEY) ??
    ok('create the role', await gatehouse.POST('/roles', { body: { key: ROLE_KEY, name: 'Notes reader', permissions: [PERMISSION] } }));

  const tenants = ok('list tenants', await gatehouse.GET('/applications/{appId}/tenants', { params: { path: { appId }, query: { pageSize: 100 } } })).data;
  const tenant =
    tenants.find((candidate) => candidate.slug === TENANT_SLUG) ??
    ok('create the tenant', await gatehouse.POST('/applications/{appId}/tenants', { params: { path: { appId } }, body: { name: 'Acme', slug: TENANT_SLUG } }));
  const tenantId = tenant.id;

  const inTenant = { path: { appId, tenantId } };
  const [existing] = ok('find the user', await gatehouse.GET('/users', { params: { query: { email: DEMO_EMAIL } } })).data;
  let user: SetupResult['user'];
  if (existing === undefined) {
    const password = randomBytes(12).toString('base64url');
    const created = ok('create the user', await gatehouse.POST('/applications/{appId}/tenants/{tenantId}/users', { params: inTenant, body: { email: DEMO_EMAIL, name: 'Demo User', password } }));
    user = { id: created.id, email: DEMO_EMAIL, password };
  } else {
    user = { id: existing.id, email: DEMO_EMAIL, password: undefined };
  }
  const assignment = await gatehouse.POST('/applications/{appId}/tenants/{tenantId}/role-assignments', {
    params: inTenant,
    body: { subject: { type: 'user', id: user.id }, roleId: role.id },
  });
  if (assignment.response.status !== 409) ok('assign the role', assignment);

  const callback = `${appUrl}/callback`;
  const clients = ok('list OAuth clients', await gatehouse.GET('/oauth-clients', { params: { query: { pageSize: 100 } } })).data;
  const registered = clients.find((candidate) => candidate.name === CLIENT_NAME && candidate.redirectUris.includes(callback));
  const client =
    registered === undefined
      ? ok('register the client', await gatehouse.POST('/oauth-clients', { body: { name: CLIENT_NAME, type: 'web', redirectUris: [callback], postLogoutRedirectUris: [appUrl] } }))
      : ok(
          'renew the client secret',
          await gatehouse.POST('/oauth-clients/{clientId}/rotate-secret', { params: { path: { clientId: registered.clientId } }, body: { gracePeriodSeconds: 0 } }),
        );
  if (client.clientSecret == null) throw new Error('a web client has a secret');
  const config: SampleConfig = {
    issuer,
    appUrl,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    tenant: TENANT_SLUG,
    tenantId,
    apiIdentifier: API_IDENTIFIER,
    permission: PERMISSION,
  };
  return { config, user, tenantId };
}

/** The command line: what went wrong in one line on stderr and exit code 1, or the config written. */
async function main(): Promise<number> {
  const gatehouseUrl = process.env['GATEHOUSE_URL'] ?? 'http://localhost:3000';
  const apiKey = process.env['GATEHOUSE_API_KEY'];
  if (apiKey === undefined || apiKey === '') {
    console.error('setup: set GATEHOUSE_API_KEY to the key Gatehouse printed on its first start');
    return 1;
  }
  let result: SetupResult;
  try {
    result = await setUp({ gatehouseUrl, apiKey, appUrl: process.env['APP_URL'] ?? 'http://localhost:4000' });
  } catch (error) {
    const reason = noAnswer(error);
    if (reason !== undefined) {
      console.error(`setup: cannot reach Gatehouse at ${gatehouseUrl} (${reason}): start it (npm start), or set GATEHOUSE_URL to its address (its PUBLIC_URL)`);
      return 1;
    }
    if (!(error instanceof SampleRefused)) throw error;
    console.error(`setup: ${error.message}`);
    return 1;
  }
  writeFileSync(CONFIG_FILE, `${JSON.stringify(result.config, null, 2)}\n`, { mode: 0o600 });
  console.log(`Wrote ${CONFIG_FILE.pathname}.`);
  const { user } = result;
  console.log(user.password === undefined ? `Sign in as ${user.email} (created by an earlier run).` : `Sign in as ${user.email} with password ${user.password}`);
  return 0;
}

if (import.meta.main) process.exitCode = await main();
