import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { root } from './spawned-service.ts';

/** `node src/process/cli.ts <args>` to its end; DATABASE_URL empty (the embedded database) unless `env` sets it. */
export function runCli(args: string[], env: Record<string, string>, cwd = root): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'src/process/cli.ts'), ...args], { env: { ...process.env, DATABASE_URL: '', ...env }, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
