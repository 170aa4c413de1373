import type { FastifyReply, FastifyRequest } from 'fastify';
import { surfaceLook } from '../domain/sign-in/surface-settings.ts';
import type { Services } from '../services.ts';
import { lookFor, PLAIN_LOOK, renderPage, type PageLook, type RenderedPage } from './pages.ts';
import { withWebauthnScript } from './webauthn.ts';

/**
 * Answers with a hosted page and its headers (a fresh style nonce, the page's image origins). `formTargets` are
 * the places besides 'self' its form may lead to: browsers apply form-action to the redirects that follow a POST
 * too, and the 303s of a sign-in lead through the OP (self) to the client's redirect URI.
 */
export function sendPage(reply: FastifyReply, status: number, render: (nonce: string) => RenderedPage, formTargets: readonly string[] = []) {
  const page = renderPage((nonce) => withWebauthnScript(render(nonce)), ["'self'", ...formTargets]);
  return reply
    .status(status)
    .headers(page.headers)
    .type('text/html; charset=utf-8')
    .send(page.html);
}

/** `look` (the plain one when no surface is known) in the language of the browser (`Accept-Language`). */
export const browserLook = (request: FastifyRequest, look: PageLook = PLAIN_LOOK): PageLook => lookFor(look, request.headers['accept-language']);

/**
 * The look of a page that names an application but proves no sign-in of it (a link's token, an IdP's response), in
 * the browser's language: on a custom domain the domain's (its application and tenant), else `applicationId`'s on
 * `tenantRef`'s surface, else the plain look. Public branding only, the same whether a token was real or not.
 */
export async function namedSurfaceLook(services: Services, request: FastifyRequest, applicationId: string | undefined, tenantRef: string | null): Promise<PageLook> {
  const surface = await services.surfaces.forHost(request.headers.host);
  const place = surface.kind === 'domain' ? { applicationId: surface.applicationId, tenantRef: surface.tenantId } : applicationId === undefined ? undefined : { applicationId, tenantRef };
  return browserLook(request, place === undefined ? undefined : await surfaceLook(services, request.id, place.applicationId, place.tenantRef));
}
