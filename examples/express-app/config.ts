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
  /** The API resource the backend route is: the access token's audience. */
  readonly apiIdentifier: string;
  /** The permission the backend route requires. */
  readonly permission: string;
}

export const CONFIG_FILE = new URL('./gatehouse.local.json', import.meta.url);

export function readConfig(): SampleConfig {
  try {
    return JSON.parse(readFileSync(CONFIG_FILE, 'utf8')) as SampleConfig;
  } catch {
    throw new Error(`${CONFIG_FILE.pathname} is missing: run setup.ts first (README, "Quick start")`);
  }
}
