/**
 * What a domain function reaches through its Scope (DomainServices, src/services.ts): `npm run typecheck` compiles this
 * file (it is never run), and each `@ts-expect-error` fails the build if the line below it stops being a type error.
 */
import type { Scope } from '../../src/context.ts';
import type { Services } from '../../src/services.ts';

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
