import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { Visit } from './cookie-jar.ts';

/** The headers every answer of the hosted pages carries: never framed, cached, sniffed or referred, under a deny-all policy. */
export function expectHostedHeaders(visit: Visit) {
  expect(visit.headers.get('x-frame-options')).toBe('DENY');
  expect(visit.headers.get('cache-control')).toBe('no-store');
  expect(visit.headers.get('referrer-policy')).toBe('no-referrer');
  expect(visit.headers.get('x-content-type-options')).toBe('nosniff');
  const csp = visit.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("default-src 'none'");
}

/**
 * The policy of one of oidc-provider's self-submitting forms: nothing but its own inline script (by hash) and the
 * form's targets.
 */
export function expectSelfSubmittingForm(visit: Visit, formAction: string) {
  expect(visit.status).toBe(200);
  expectHostedHeaders(visit);
  const script = /<script>([\s\S]*?)<\/script>/.exec(visit.body)?.[1];
  expect(script, visit.body).toBeDefined();
  const hash = createHash('sha256').update(script!).digest('base64');
  const directives = (visit.headers.get('content-security-policy') ?? '').split(';').map((directive) => directive.trim());
  expect(directives).toEqual([
    "default-src 'none'",
    `script-src 'sha256-${hash}'`,
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ]);
}
