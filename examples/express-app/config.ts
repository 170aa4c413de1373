import { readFileSync } from 'node:fs';

/** What the sample needs of Gatehouse, written by setup.ts into CONFIG_FILE. */
export interface SampleConfig {
  /** Gatehouse's issuer: its `PUBLIC_URL`. */
  readonly issuer: string;
  /** Where this app runs; its callback is `${appUrl}/callback`. */
  readonly appUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The tenant users sign in to (its slug). */
  readonly tenant: string;
  /** Its id: the `tenant_id` of the tokens of its sign-ins. */
  readonly tenantId: string;
  /** The API resource the backend route is: the access token's audience. */
  readonly apiIdentifier: string;
  /** The permission the backend route requires. */
  readonly permission: string;
}

export const CONFIG_FILE = new URL('./gatehouse.local.json', import.meta.url);

/** Said in one line, no stack: its message says what to do. */
export class SampleRefused extends Error {}

const FIELDS = ['issuer', 'appUrl', 'clientId', 'clientSecret', 'tenant', 'tenantId', 'apiIdentifier', 'permission'] as const;

export function readConfig(file: URL = CONFIG_FILE): SampleConfig {
  let config: Partial<Record<string, unknown>>;
  try {
    config = JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<string, unknown>>;
  } catch {
    throw new SampleRefused(`${file.pathname} is missing: run npm run example:setup first (README, "Quick start")`);
  }
  // A file of an older setup (without tenantId): every sign-in would be refused as another tenant's.
  const missing = FIELDS.find((field) => typeof config[field] !== 'string' || config[field] === '');
  if (missing !== undefined) throw new SampleRefused(`${file.pathname} has no ${missing}: run npm run example:setup again`);
  return config as unknown as SampleConfig;
}

/** The origin alone: `http://localhost:4000/` would make `//callback`, and register a second client. */
export function appOrigin(appUrl: string): string {
  if (!URL.canParse(appUrl)) throw new SampleRefused(`APP_URL must be an http(s) URL such as http://localhost:4000, got "${appUrl}"`);
  return new URL(appUrl).origin;
}

/** ECONNREFUSED, ENOTFOUND, …: undefined for an error other than no answer at all. */
export function noAnswer(error: unknown): string | undefined {
  if (!(error instanceof TypeError) || error.message !== 'fetch failed') return undefined;
  const cause = error.cause as { code?: string; message?: string } | undefined;
  return cause?.code ?? cause?.message ?? 'no answer';
}
