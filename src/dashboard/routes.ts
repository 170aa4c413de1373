import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { dashboardClientOf } from '../domain/console/console.ts';
import type { SurfaceRouter } from '../domain/domains/surfaces.ts';
import { escapeHtml, notice, PLAIN_LOOK, renderPage } from '../pages/pages.ts';
import { isPublicHost } from '../http/public-host.ts';
import { isUuid } from '../ids.ts';

export const DASHBOARD_DIST = resolve(import.meta.dirname, '../../dashboard/dist');

const DASHBOARD_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const ASSET_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};
/** Vite's names; nothing that climbs out of the folder. */
const ASSET_NAME = /^[\w-]+(\.[\w-]+)*$/;

interface DashboardDeps {
  readonly orm: MikroORM;
  readonly surfaces: SurfaceRouter;
  readonly publicUrl: string;
  readonly audience: string;
  readonly distDir?: string;
}

/**
 * The dashboard asked for at another origin than PUBLIC_URL's (127.0.0.1 for localhost): its sign-in, which its CSP
 * lets reach only its own origin, would fail. A page with the link rather than a redirect: when PUBLIC_URL itself is
 * wrong, it says which setting to change.
 */
function misdirectedPage(publicUrl: string, requested: string, organization: string | undefined) {
  const dashboard = `${publicUrl}/dashboard/${organization !== undefined && isUuid(organization) ? `?organization=${organization}` : ''}`;
  return renderPage((nonce) =>
    notice(
      PLAIN_LOOK,
      nonce,
      'The dashboard is at another address',
      [
        `Open the dashboard at <a href="${escapeHtml(dashboard)}">${escapeHtml(dashboard)}</a>, this service&#39;s address (its PUBLIC_URL).`,
        `This page was asked for at ${escapeHtml(requested)}, where the dashboard cannot sign in. If that is the address you use, set PUBLIC_URL to it and restart the service.`,
      ],
      true,
    ),
  );
}

/** `?organization=` picks an organization's console, else the oldest's. */
export function registerDashboard(app: FastifyInstance, deps: DashboardDeps): void {
  const dist = deps.distDir ?? DASHBOARD_DIST;
  const publicUrl = new URL(deps.publicUrl);
  app.get('/dashboard', async (_request, reply) => reply.redirect('/dashboard/', 301));
  // A newcomer opens the root first. Not on a custom domain, whose visitors are end users; 302, as the root may serve more.
  app.get('/', async (request, reply) =>
    (await deps.surfaces.forHost(request.headers.host ?? '')).kind === 'domain' ? reply.callNotFound() : reply.redirect('/dashboard/', 302),
  );
  app.get<{ Querystring: { organization?: string } }>('/dashboard/', async (request, reply) => {
    const organization = request.query.organization;
    if (!isPublicHost(request.headers.host, publicUrl)) {
      const page = misdirectedPage(deps.publicUrl, `${publicUrl.protocol}//${request.headers.host ?? ''}`, organization);
      return reply.status(421).headers(page.headers).type('text/html; charset=utf-8').send(page.html);
    }
    const html = await readFile(resolve(dist, 'index.html'), 'utf8').catch(() => null);
    reply.header('cache-control', 'no-cache').header('content-security-policy', DASHBOARD_POLICY);
    if (html === null) {
      return reply.status(503).type('text/plain; charset=utf-8').send('The dashboard is not built: run `npm run dashboard:build`.\n');
    }
    const client = organization === undefined || isUuid(organization) ? await dashboardClientOf(deps.orm.em.getConnection(), deps.publicUrl, organization) : null;
    if (client === null) return reply.status(404).type('text/plain; charset=utf-8').send('No organization has a console here.\n');
    const meta = (name: string, content: string) => `<meta name="${name}" content="${escapeHtml(content)}">`;
    // The organization too: while it is deactivated, no query would tell the dashboard which one to reactivate.
    const config = [
      meta('gatehouse-issuer', deps.publicUrl),
      meta('gatehouse-client-id', client.clientId),
      meta('gatehouse-organization', client.organizationId),
      meta('gatehouse-management-audience', deps.audience),
    ];
    return reply.type('text/html; charset=utf-8').send(html.replace('</head>', `${config.join('')}</head>`));
  });
  // Browsers ask every origin for it; the dashboard has no icon, and a 404 would be logged on each of its pages.
  app.get('/favicon.ico', async (_request, reply) => reply.header('cache-control', 'public, max-age=86400').status(204).send());
  app.get<{ Params: { name: string } }>('/dashboard/assets/:name', async (request, reply) => {
    const { name } = request.params;
    const type = ASSET_TYPES[extname(name)];
    const body = type !== undefined && ASSET_NAME.test(name) ? await readFile(resolve(dist, 'assets', name)).catch(() => null) : null;
    if (body === null) return reply.status(404).type('text/plain; charset=utf-8').send('Not found\n');
    // Vite names each build's files by their content: a name never changes meaning.
    return reply.header('cache-control', 'public, max-age=31536000, immutable').type(type!).send(body);
  });
}
