import type { FastifyReply, FastifyRequest } from 'fastify';
import { surfaceLook } from '../domain/sign-in/surface-settings.ts';
import type { Services } from '../services.ts';
import { lookFor, PLAIN_LOOK, renderPage, type PageLook, type RenderedPage } from './pages.ts';
import { withWebauthnScript } from './webauthn.ts';

/** `formTargets`: browsers apply form-action to a POST's redirects, and a sign-in's 303s lead through the OP. */
export function sendPage(reply: FastifyReply, status: number, render: (nonce: string) => RenderedPage, formTargets: readonly string[] = []) {
  const page = renderPage((nonce) => withWebauthnScript(render(nonce)), ["'self'", ...formTargets]);
  return reply
    .status(status)
    .headers(page.headers)
    .type('text/html; charset=utf-8')
    .send(page.html);
}

export const browserLook = (request: FastifyRequest, look: PageLook = PLAIN_LOOK): PageLook => lookFor(look, request.headers['accept-language']);

/** For a page proving no sign-in (a link's token, an IdP's response): public branding, the same for a fake token. */
export async function namedSurfaceLook(services: Services, request: FastifyRequest, applicationId: string | undefined, tenantRef: string | null): Promise<PageLook> {
  const surface = await services.surfaces.forHost(request.headers.host);
  const place = surface.kind === 'domain' ? { applicationId: surface.applicationId, tenantRef: surface.tenantId } : applicationId === undefined ? undefined : { applicationId, tenantRef };
  return browserLook(request, place === undefined ? undefined : await surfaceLook(services, request.id, place.applicationId, place.tenantRef));
}
