import { readFileSync } from 'node:fs';

const packageJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as Record<string, unknown>;

/** The oidc-provider version package.json pins, and the one installed: what an upgrade changes. */
export function oidcProviderVersions(): { pinned: string; installed: string } {
  const dependencies = packageJson('../../package.json')['dependencies'] as Record<string, string>;
  return { pinned: String(dependencies['oidc-provider']), installed: String(packageJson('../../node_modules/oidc-provider/package.json')['version']) };
}
