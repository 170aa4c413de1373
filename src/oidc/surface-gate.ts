import type { Surface } from '../domain/domains/surfaces.ts';
import { isUuid } from '../ids.ts';
import { servedClientData } from './clients.ts';
import type { Services } from '../services.ts';
import { lookFor, PLAIN_LOOK, standaloneErrorPage } from '../pages/pages.ts';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';
import { admitSignIn } from '../domain/sign-in/sign-in.ts';

export interface Refusal {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly html: string;
}

/**
 * On a surface that fixes the tenant, a request naming another is refused with the hosted error page (400), never
 * redirected to the client. `surface` null: a tenant path that exists nowhere. Undefined when the OP should answer.
 */
export async function authorizationRefusal(
  services: Services,
  requestId: string,
  surface: Surface | null,
  query: URLSearchParams,
  acceptLanguage: string | undefined,
): Promise<Refusal | undefined> {
  const clientId = query.get('client_id');
  if (clientId === null || !isUuid(clientId)) return undefined;
  // Looked up on the service's surface: on a tenant's, a client of an application without that tenant does not exist.
  const data = await servedClientData((await services.oidc.get()).provider, clientId);
  if (data === undefined) return undefined;
  try {
    if (surface === null) throw new SignInRefusal('unknown_tenant');
    await admitSignIn(services, requestId, surface, { clientId, data }, query.getAll('tenant'), { open: 'skip' });
    return undefined;
  } catch (error) {
    if (!(error instanceof SignInRefusal) || error.page === null) throw error;
    // A domain of another application: the OP answers that the client does not exist there.
    if (surface?.kind === 'domain' && error.reason === 'unknown_tenant') return undefined;
    const look = lookFor(error.look ?? PLAIN_LOOK, acceptLanguage, query.get('ui_locales') ?? undefined);
    return { status: error.page.status, ...standaloneErrorPage(look, { key: error.page.copy }) };
  }
}
