import type { Surface } from '../domains/surfaces.ts';

/**
 * The WebAuthn relying party of a sign-in surface: its ID is the surface's host (the service's for the service and
 * tenant paths, which share it; a custom domain's own), and the origin its pages are served from. A credential works
 * on the relying-party ID it was registered for only (browsers enforce it; so does the lookup).
 */
export interface RelyingParty {
  readonly id: string;
  readonly origin: string;
}

export function relyingPartyOf(surface: Surface): RelyingParty {
  const url = new URL(surface.issuer);
  return { id: url.hostname, origin: url.origin };
}
