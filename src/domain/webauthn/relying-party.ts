import type { Surface } from '../domains/surfaces.ts';

/** Its ID is the surface's host (tenant paths share the service's); a credential works only for the RP ID it was
 *  registered for (browsers enforce it; so does the lookup). */
export interface RelyingParty {
  readonly id: string;
  readonly origin: string;
}

export function relyingPartyOf(surface: Surface): RelyingParty {
  const url = new URL(surface.issuer);
  return { id: url.hostname, origin: url.origin };
}
