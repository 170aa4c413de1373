/**
 * What a domain function reaches through its Scope (DomainServices, src/services.ts): `npm run typecheck` compiles this
 * file (it is never run), and each `@ts-expect-error` fails the build if the line below it stops being a type error.
 */
import type { Scope } from '../../src/context.ts';
import type { Services } from '../../src/services.ts';
import type { Surface } from '../../src/domain/domains/surfaces.ts';
import type { GatehouseClientData } from '../../src/domain/oauth-clients/client-data.ts';
import { refuseDeactivated } from '../../src/domain/sign-in/refusals.ts';
import { endSamlSubjectSessions } from '../../src/domain/sign-in/saml-logout.ts';
import type { SamlProvider } from '../../src/domain/sign-in/saml.ts';
import type { PageLook } from '../../src/domain/sign-in/surface-settings.ts';
import { admitSignIn, resolveTarget } from '../../src/domain/sign-in/sign-in.ts';

export function domainFunction(scope: Scope): void {
  // What the domain uses is there.
  void scope.services.config.publicUrl;
  void scope.services.orm.em;
  scope.services.outbox.wake();

  // The OP is the adapters' (src/oidc/, src/hosted/).
  // @ts-expect-error: no oidc on a Scope's services
  void scope.services.oidc;
  // The REST read cache is the transport's (src/rest/).
  // @ts-expect-error: no readCache on a Scope's services
  void scope.services.readCache;
}

// A Scope's services cannot be handed on as the whole of Services either.
export function handedOn(scope: Scope): Services {
  // @ts-expect-error: DomainServices is not Services
  return scope.services;
}

// The domain functions the adapters call with their Services take no more than a Scope's (the lint rule of
// eslint.config.js keeps `Services` out of src/domain/).
export async function adaptersCalls(
  scope: Scope,
  client: { clientId: string; data: GatehouseClientData },
  surface: Surface,
  provider: SamlProvider,
  look: PageLook,
): Promise<void> {
  await resolveTarget(scope.services, scope.requestId, client, undefined);
  await admitSignIn(scope.services, scope.requestId, surface, client, []);
  await refuseDeactivated(scope.services, scope.applicationId, look);
  await endSamlSubjectSessions(scope.services, provider, 'name-id', scope.requestId);
}
