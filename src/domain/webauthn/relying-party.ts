import type { Surface } from '../domains/surfaces.ts';

/**
 * Its ID is the surface's host (service and tenant paths share it; a custom domain has its own). A credential works on
 * the relying-party ID it was registered for only (browsers enforce it; so does the lookup).
 */
export interface RelyingParty {
  readonly id: string;
  readonly origin: string;
}

export function relyingPartyOf(surface: Surface): RelyingParty {
  const url = new URL(surface.issuer);
  return { id: url.hostname, origin: url.origin };
}
