import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** A client's redirect URI the browser really leaves the service for: a tiny server of the test's, on another port. */
export interface ClientCallback {
  readonly redirectUri: string;
  /** Every URL the browser was sent to there, in order. */
  readonly received: readonly URL[];
  close(): Promise<void>;
}

export async function startClientCallback(): Promise<ClientCallback> {
  const received: URL[] = [];
  const server = createServer((request, response) => {
    received.push(new URL(request.url ?? '/', redirectUri));
    response.writeHead(200, { 'content-type': 'text/plain' }).end('back at the client');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return { redirectUri, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
