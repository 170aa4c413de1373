import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createGatehouseClient } from '@gatehouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClientTypes, SCHEMA_FILE } from '../../packages/client/generate.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { root } from '../support/spawned-service.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe('typed client (packages/client)', () => {
  it('is generated from the OpenAPI document as it is now: run `npm run client:generate` when this fails', async () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8') === (await generateClientTypes()), 'packages/client/src/schema.ts is stale').toBe(true);
  });

  it('creates and reads through the management API, and reads its refusals in the contract’s body', async () => {
    const gatehouse = createGatehouseClient({ baseUrl: app.baseUrl, apiKey: app.root.apiKey });
    const appId = app.root.applicationId;
    const tenant = await gatehouse.POST('/applications/{appId}/tenants', { params: { path: { appId } }, body: { name: 'Typed', slug: 'typed' } });
    expect(tenant.response.status).toBe(201);
    const tenantId = tenant.data!.id;
    const user = await gatehouse.POST('/applications/{appId}/tenants/{tenantId}/users', {
      params: { path: { appId, tenantId } },
      body: { email: 'typed@example.com', name: 'Typed' },
    });
    expect(user.response.status).toBe(201);
    const listed = await gatehouse.GET('/applications/{appId}/tenants/{tenantId}/users', { params: { path: { appId, tenantId }, query: { pageSize: 10 } } });
    expect(listed.data?.data.map((member) => member.email)).toEqual(['typed@example.com']);
    const byIds = await gatehouse.GET('/users', { params: { query: { ids: [user.data!.id, tenantId] } } });
    expect(byIds.data?.data.map((member) => member.id)).toEqual([user.data!.id]);

    const refused = await gatehouse.GET('/users/{userId}', { params: { path: { userId: 'nope' } } });
    expect(refused.response.status).toBe(422);
    expect(refused.error).toEqual({ code: 'validation_error', message: 'Invalid userId: expected a UUIDv7 (Gatehouse ids are UUIDv7)', field: 'userId' });

    const stranger = createGatehouseClient({ baseUrl: app.baseUrl, apiKey: 'ghk_unknown' });
    const unauthenticated = await stranger.GET('/users', {});
    expect(unauthenticated.response.status).toBe(401);
    expect(unauthenticated.error?.code).toBe('unauthenticated');
  });

  it('opens the audit stream, typed, as a stream of Server-Sent Events (`parseAs: stream`), and reads its refusals as JSON', async () => {
    const gatehouse = createGatehouseClient({ baseUrl: app.baseUrl, apiKey: app.root.apiKey });
    const appId = app.root.applicationId;
    const stream = await gatehouse.GET('/applications/{appId}/audit-logs/stream', { params: { path: { appId }, query: { action: 'tenant.created' } }, parseAs: 'stream' });
    expect([stream.response.status, stream.response.headers.get('content-type')]).toEqual([200, 'text/event-stream; charset=utf-8']);
    const reader = stream.data!.getReader();
    const tenant = await gatehouse.POST('/applications/{appId}/tenants', { params: { path: { appId } }, body: { name: 'Streamed' } });
    let text = '';
    while (!text.includes(`"id":"${tenant.data!.id}"`)) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(text).toContain('event: audit');
    const refused = await gatehouse.GET('/audit-logs/stream', { params: { query: { from: 'yesterday' } } });
    expect([refused.response.status, refused.error?.field]).toEqual([422, 'from']);
  });
});

const run = promisify(execFile);
const CLIENT_DIR = join(root, 'packages/client');

/** The packages an installed package needs, as this repository's (hoisted) node_modules holds them. */
async function runtimeDependencies(packageDir: string, found = new Set<string>()): Promise<Set<string>> {
  const { dependencies = {} } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(dependencies)) {
    const dir = join(root, 'node_modules', name);
    if (found.has(dir)) continue;
    found.add(dir);
    await runtimeDependencies(dir, found);
  }
  return found;
}

/** What an adopter's own project sees of it: a plain Node and TypeScript project outside the repository. */
const ADOPTER_SCRIPT = `import { createGatehouseClient } from '@gatehouse/client';
const gatehouse = createGatehouseClient({ baseUrl: process.env.GATEHOUSE_URL, apiKey: process.env.GATEHOUSE_API_KEY });
const { data, response } = await gatehouse.GET('/applications', {});
console.log(JSON.stringify({ status: response.status, ids: data.data.map((application) => application.id) }));
`;
const ADOPTER_TYPES = `import { createGatehouseClient, type components } from '@gatehouse/client';
export async function nameOf(userId: string): Promise<string | components['schemas']['ErrorBody']> {
  const gatehouse = createGatehouseClient({ baseUrl: 'http://localhost:3000', apiKey: 'ghk_example' });
  const { data, error } = await gatehouse.GET('/users/{userId}', { params: { path: { userId } } });
  return data === undefined ? error : data.email;
}
// @ts-expect-error: no such path
await createGatehouseClient({ baseUrl: 'http://localhost:3000' }).GET('/no-such-path', {});
`;
const ADOPTER_TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], strict: true, noEmit: true, skipLibCheck: true },
  files: ['check.ts'],
};

describe('the typed client as a package (npm pack)', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'gatehouse-client-adopter-'));
  });
  afterAll(async () => {
    if (work !== undefined) await rm(work, { recursive: true, force: true });
  });

  it('installs from its tarball into a project outside the repository, offline, and works there with plain Node and tsc', async () => {
    // Not the npm_* settings of an `npm test` around this run: npm would read them as this repository's.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
    const npm = (args: string[], cwd: string) => run('npm', [...args, '--cache', join(work, 'npm-cache'), '--no-audit', '--no-fund', '--loglevel', 'error'], { cwd, env });

    // prepack builds dist/; only the compiled JavaScript and its declarations ship.
    const packed = JSON.parse((await npm(['pack', '--json', '--pack-destination', work], CLIENT_DIR)).stdout) as { filename: string; files: { path: string }[] }[];
    const [client] = packed;
    expect(client!.files.map((file) => file.path).sort()).toEqual(['dist/index.d.ts', 'dist/index.js', 'dist/schema.d.ts', 'dist/schema.js', 'package.json', 'README.md'].sort());
    // Its runtime dependencies from this repository's node_modules, packed too: the install needs neither network nor cache.
    const dependencies = [...(await runtimeDependencies(CLIENT_DIR))];
    const packedDependencies = JSON.parse((await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work, ...dependencies], work)).stdout) as { filename: string }[];

    const project = join(work, 'adopter');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'adopter', private: true, type: 'module' }));
    const tarballs = [client!, ...packedDependencies].map((tarball) => join(work, tarball.filename));
    await npm(['install', '--offline', ...tarballs], project);

    await writeFile(join(project, 'adopter.js'), ADOPTER_SCRIPT);
    const { stdout } = await run(process.execPath, ['adopter.js'], { cwd: project, env: { ...env, GATEHOUSE_URL: app.baseUrl, GATEHOUSE_API_KEY: app.root.apiKey } });
    expect(JSON.parse(stdout)).toEqual({ status: 200, ids: [app.root.applicationId] });

    await writeFile(join(project, 'check.ts'), ADOPTER_TYPES);
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify(ADOPTER_TSCONFIG));
    const typecheck = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: project, env }).catch((error: { stdout: string }) => error);
    expect(typecheck.stdout).toBe('');
  }, 180_000);
});
