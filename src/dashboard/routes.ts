import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { dashboardClientOf } from '../domain/console/console.ts';
import { escapeHtml } from '../pages/pages.ts';
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
  readonly publicUrl: string;
  readonly audience: string;
  readonly distDir?: string;
}

/** `?organization=` picks an organization's console, else the oldest's. */
export function registerDashboard(app: FastifyInstance, deps: DashboardDeps): void {
  const dist = deps.distDir ?? DASHBOARD_DIST;
  app.get('/dashboard', async (_request, reply) => reply.redirect('/dashboard/', 301));
  app.get<{ Querystring: { organization?: string } }>('/dashboard/', async (request, reply) => {
    const organization = request.query.organization;
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
