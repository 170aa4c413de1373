import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as run } from '../support/cli.ts';
import { freePort } from '../support/spawned-service.ts';

/**
 * `gatehouse bootstrap --json` and `npm start` on the embedded database, as separate processes: the CLI opens
 * the data directory itself when no server runs, and goes through the running server's socket when one does.
 */
const root = new URL('../../', import.meta.url).pathname;
let dataDir: string;
let server: ChildProcess | undefined;
/** The server the socket tests share, and the application its CLI bootstrap created. */
let running: { port: number; applicationId: string } | undefined;

async function waitFor(url: string): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} never became ready`);
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-cli-'));
});
afterAll(async () => {
  if (server !== undefined && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGKILL');
    await exited;
  }
  await rm(dataDir, { recursive: true, force: true });
});

describe('gatehouse CLI on the embedded database', () => {
  it('bootstraps with no server running and prints one JSON line', async () => {
    const result = await run(['bootstrap', '--json'], { GATEHOUSE_DATA_DIR: dataDir });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toEqual({
      organizationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      applicationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      apiKey: expect.stringMatching(/^ghk_/),
    });
  });

  it('refuses an unknown command, or an unknown option, with usage and exit code 2', async () => {
    for (const [argv, reason] of [
      [['frobnicate'], 'gatehouse: unknown command "frobnicate"\n'],
      [['bootstrap', '--jsn'], "gatehouse: Unknown option '--jsn'"],
      [['bootstrap', '--json=yes'], 'gatehouse: Option \'--json\' does not take an argument'],
      [[], 'gatehouse: no command given\n'],
      [['create-api-key'], 'gatehouse: create-api-key needs --application <id>\n'],
      [['bootstrap', '--application', 'x'], "gatehouse: --application is create-api-key's option\n"],
    ] as const) {
      const result = await run([...argv], { GATEHOUSE_DATA_DIR: dataDir });
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr.startsWith(reason), result.stderr).toBe(true);
      expect(result.stderr).toContain('usage: gatehouse');
      expect(result.stderr).not.toContain('    at ');
    }
  });

  it('prints the usage on help or --help, exit code 0', async () => {
    for (const argv of [['help'], ['--help'], ['bootstrap', '--help']]) {
      const result = await run(argv, { GATEHOUSE_DATA_DIR: dataDir });
      expect([result.code, result.stderr], argv.join(' ')).toEqual([0, '']);
      expect(result.stdout).toMatch(/^usage: gatehouse /);
    }
  });

  it('refuses a malformed setting as the service does: one line naming it, exit code 1, nothing opened', async () => {
    const result = await run(['bootstrap', '--json'], { GATEHOUSE_DATA_DIR: dataDir, PUBLIC_URL: 'auth.example.com' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('gatehouse: PUBLIC_URL must be an http(s) origin, such as https://auth.example.com (no path, query or credentials)\n');
    expect(result.stdout).toBe('');
  });

  it('refuses every command but bootstrap where there is no database, naming where it looked, and creates nothing', async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), 'gatehouse-cli-elsewhere-'));
    try {
      const refusal = (path: string) =>
        `gatehouse: no embedded database in ${path}: run the command in the server's directory, or set GATEHOUSE_DATA_DIR to its data directory (DATABASE_URL to its PostgreSQL)\n`;
      const application = ['create-api-key', '--application', '01a00000-0000-7000-8000-000000000000'];
      // Run from another directory than the server's: the default ./data there.
      for (const command of [application, ['rotate-signing-key']]) {
        const result = await run(command, { GATEHOUSE_DATA_DIR: '' }, elsewhere);
        expect([result.code, result.stderr, result.stdout], command[0]).toEqual([1, refusal(join(elsewhere, 'data')), '']);
      }
      expect(existsSync(join(elsewhere, 'data'))).toBe(false);
      // A data directory that exists but holds no database yet (one made by hand) is no database either.
      const empty = await run(application, { GATEHOUSE_DATA_DIR: elsewhere });
      expect([empty.code, empty.stderr]).toEqual([1, refusal(elsewhere)]);
      expect(await readdir(elsewhere)).toEqual([]);

      // A server that is creating it (it holds the directory): the command waits for it, as for any owner.
      await writeFile(join(elsewhere, 'gatehouse.lock'), JSON.stringify({ pid: process.pid }), { mode: 0o600 });
      const child = spawn(process.execPath, [join(root, 'src/process/cli.ts'), ...application], { env: { ...process.env, DATABASE_URL: '', GATEHOUSE_DATA_DIR: elsewhere }, cwd: root });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      let stderr = '';
      await new Promise<void>((resolve) =>
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (stderr.includes('\n')) resolve();
        }),
      );
      expect(stderr).toBe(`gatehouse: waiting for process ${process.pid}, which holds the embedded database in ${elsewhere}\n`);
      child.kill('SIGKILL');
      await exited;
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('bootstraps through the running server’s socket, and the new key works against that server', async () => {
    const port = await freePort();
    server = spawn(process.execPath, [join(root, 'src/process/main.ts')], {
      env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', GATEHOUSE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      cwd: root,
      stdio: 'ignore',
    });
    await waitFor(`http://127.0.0.1:${port}/readyz`);
    const result = await run(['bootstrap', '--json'], { GATEHOUSE_DATA_DIR: dataDir, PORT: String(port) });
    expect(result.code, result.stderr).toBe(0);
    const created = JSON.parse(result.stdout) as { organizationId: string; applicationId: string; apiKey: string };
    // A later organization's first operator, whom no start would make.
    expect(JSON.parse(result.stdout)).toMatchObject({
      firstOperator: {
        email: 'admin@gatehouse.localhost',
        passwordLink: expect.stringMatching(new RegExp(`^http://localhost:${port}/account/reset-password\\?token=`)),
        dashboard: `http://localhost:${port}/dashboard/?organization=${created.organizationId}`,
      },
    });
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/applications`, { headers: { 'x-api-key': created.apiKey } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { id: string }[] };
    expect(body.data.map((application) => application.id)).toEqual([created.applicationId]);
    const asked = Date.now();
    const rotated = await run(['rotate-signing-key', '--json'], { GATEHOUSE_DATA_DIR: dataDir });
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(JSON.parse(rotated.stdout)).toEqual({ kids: { ES256: expect.any(String), RS256: expect.any(String) }, signsFrom: expect.any(String) });
    // Signing a minute after publication, which the operator can wait for before retiring anything else.
    const { signsFrom } = JSON.parse(rotated.stdout) as { signsFrom: string };
    expect(Date.parse(signsFrom) - asked).toBeGreaterThanOrEqual(60_000);
    // A leak: new keys, and those just made revoked (signing-keys.test.ts shows what that does to their tokens).
    const revoking = await run(['rotate-signing-key', '--revoke', '--json'], { GATEHOUSE_DATA_DIR: dataDir });
    expect(revoking.code, revoking.stderr).toBe(0);
    expect(Date.parse((JSON.parse(revoking.stdout) as { signsFrom: string }).signsFrom)).toBeLessThanOrEqual(Date.now());
    const { kids } = JSON.parse(rotated.stdout) as { kids: Record<string, string> };
    const { kids: replacements } = JSON.parse(revoking.stdout) as { kids: Record<string, string> };
    expect(Object.values(replacements)).not.toEqual(expect.arrayContaining(Object.values(kids)));
    // --revoke belongs to rotate-signing-key alone.
    expect((await run(['bootstrap', '--revoke'], { GATEHOUSE_DATA_DIR: dataDir })).code).toBe(2);

    running = { port, applicationId: created.applicationId };
  });

  it('create-api-key recovers access to an application whose bootstrap key is lost, through the running server', async () => {
    if (running === undefined) throw new Error('the server of the test above is not running');
    const recovered = await run(['create-api-key', '--application', running.applicationId, '--json'], { GATEHOUSE_DATA_DIR: dataDir });
    expect(recovered.code, recovered.stderr).toBe(0);
    const recovery = JSON.parse(recovered.stdout) as { applicationId: string; apiKey: string; apiKeyId: string; permissions: string[] };
    expect(recovery).toMatchObject({ applicationId: running.applicationId, apiKey: expect.stringMatching(/^ghk_/), permissions: expect.arrayContaining(['*']) });
    const listed = await fetch(`http://127.0.0.1:${running.port}/api/v1/applications`, { headers: { 'x-api-key': recovery.apiKey } });
    expect(listed.status).toBe(200);
    const audit = await fetch(`http://127.0.0.1:${running.port}/api/v1/audit-logs?action=api_key.created`, { headers: { 'x-api-key': recovery.apiKey } });
    const records = ((await audit.json()) as { data: { target: { id: string }; actor: unknown }[] }).data;
    expect(records.find((record) => record.target.id === recovery.apiKeyId)?.actor).toEqual({ type: 'cli', id: 'create-api-key' });
    // Narrower permissions when asked; a malformed one, or an application that does not exist, is refused in words.
    const narrow = await run(['create-api-key', '--application', running.applicationId, '--permissions', 'users:read, users:write', '--json'], { GATEHOUSE_DATA_DIR: dataDir });
    expect(JSON.parse(narrow.stdout)).toMatchObject({ permissions: ['users:read', 'users:write'] });
    const narrowKey = (JSON.parse(narrow.stdout) as { apiKey: string }).apiKey;
    expect((await fetch(`http://127.0.0.1:${running.port}/api/v1/applications`, { headers: { 'x-api-key': narrowKey } })).status).toBe(403);
    // A permission that does not exist, well-formed or not: said so, with the ones it may have meant or where they are listed.
    const misspelt = await run(['create-api-key', '--application', running.applicationId, '--permissions', 'users:read,users:reed'], { GATEHOUSE_DATA_DIR: dataDir });
    expect([misspelt.code, misspelt.stderr]).toEqual([
      1,
      'gatehouse: Unknown permission "users:reed": there is no such permission; those of users are users:read, users:write, users:delete, and users:* for all of them\n',
    ]);
    const bad = await run(['create-api-key', '--application', running.applicationId, '--permissions', 'invoices:fly!'], { GATEHOUSE_DATA_DIR: dataDir });
    expect([bad.code, bad.stderr]).toEqual([
      1,
      "gatehouse: Unknown permission \"invoices:fly!\": there is no such permission; a credential carries the management API's own permissions (GET /api/v1/permissions lists them as builtIn), a resource:* of one of their resources, or *\n",
    ]);
    const unknown = '01a00000-0000-7000-8000-000000000000';
    const missing = await run(['create-api-key', '--application', unknown], { GATEHOUSE_DATA_DIR: dataDir });
    expect([missing.code, missing.stderr]).toEqual([1, `gatehouse: No application ${unknown}\n`]);
  }, 240_000);

  it('commands at once through the socket take turns on its one free connection, and all succeed', async () => {
    const results = await Promise.all([
      run(['bootstrap', '--json'], { GATEHOUSE_DATA_DIR: dataDir }),
      run(['rotate-signing-key', '--json'], { GATEHOUSE_DATA_DIR: dataDir }),
      run(['bootstrap', '--json'], { GATEHOUSE_DATA_DIR: dataDir }),
    ]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);
  });

  it('a command waits while another holds the socket’s command connection, then goes through', async () => {
    // A command holding it: this test process, alive, as the lock names it.
    const lock = join(dataDir, 'gatehouse-command.lock');
    await writeFile(lock, JSON.stringify({ pid: process.pid }), { mode: 0o600 });
    const child = spawn(process.execPath, [join(root, 'src/process/cli.ts'), 'bootstrap', '--json'], {
      env: { ...process.env, DATABASE_URL: '', GATEHOUSE_DATA_DIR: dataDir },
      cwd: root,
    });
    let stderr = '';
    let stdout = '';
    const waiting = new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes(`gatehouse: waiting for process ${process.pid}, which runs a command on the embedded database in ${dataDir}`)) resolve();
      }),
    );
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await waiting;
    expect(child.exitCode).toBeNull();
    await rm(lock);
    expect(await exited, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ apiKey: expect.any(String) });
  });

  it('a second server on the same data directory refuses to start', async () => {
    const second = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(root, 'src/process/main.ts')], {
        env: { ...process.env, DATABASE_URL: '', GATEHOUSE_DATA_DIR: dataDir, PORT: '0', PUBLIC_URL: 'http://gatehouse.test', LOG_LEVEL: 'warn' },
        cwd: root,
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`^gatehouse: the embedded database in ${dataDir} is in use by process ${server?.pid} \\(postgresql://[^\\n]+\\)\\n$`));
  });

  it('shuts down on SIGTERM with exit code 0, releasing the data directory', async () => {
    const exited = new Promise<number | null>((resolve) => server?.once('exit', (code) => resolve(code)));
    server?.kill('SIGTERM');
    expect(await exited).toBe(0);
    const after = await run(['bootstrap', '--json'], { GATEHOUSE_DATA_DIR: dataDir });
    expect(after.code, after.stderr).toBe(0);
  });
});

