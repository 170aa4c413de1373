import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** Never framed, sniffed, or leaking its URL as a Referer. */
export const HTML_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/** Nothing loads, runs, frames it or is posted from it. */
export const DEFAULT_HTML_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** So that those and nothing else run. */
export function inlineHashes(html: string, tag: 'script' | 'style'): string[] {
  const elements = html.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'gi'));
  return [...new Set([...elements].map(([, content = '']) => `'sha256-${createHash('sha256').update(content).digest('base64')}'`))];
}

/** The OP writes on the raw response: its routes set the same headers before handing over (src/oidc/routes.ts). */
export function secureHtmlAnswers(app: FastifyInstance): void {
  // A callback hook: every answer passes it, most of them not HTML.
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) {
      for (const [name, value] of Object.entries(HTML_SECURITY_HEADERS)) if (!reply.hasHeader(name)) reply.header(name, value);
      if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', DEFAULT_HTML_POLICY);
    }
    done(null, payload);
  });
}
