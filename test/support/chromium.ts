import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's Chromium: installed by .ci/run (`apt-get install -y chromium`); no browser is ever downloaded. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * A headless Chromium that reaches nothing but this machine. Without the browser the suite fails rather than
 * passing unchecked: the browser tests run only through `npm run test:browser`, which needs it.
 */
export async function launchChromium(): Promise<Browser> {
  expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium`).toBe(true);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
}
