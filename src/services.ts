import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { ApiKeyCache } from './auth/api-key-cache.ts';
import type { SecretBox } from './auth/client-secrets.ts';
import type { SigningKeyStore } from './auth/signing-keys.ts';
import type { SurfaceRouter } from './domain/domains/surfaces.ts';
import type { AuditWaker } from './domain/audit/stream.ts';
import type { TokenEventWriter } from './domain/audit/auth-events.ts';
import type { OutboxWaker } from './domain/email/deliver.ts';
import type { CursorCodec } from './domain/pagination.ts';
import type { InvalidationBus } from './events/invalidations.ts';
import type { RefusalTiming } from './domain/sign-in/refusal-timing.ts';
import type { SessionValidationCache } from './domain/sessions/validation-cache.ts';
import type { SurfaceSettingsCache } from './domain/sign-in/surface-settings.ts';
import type { OidcProvider } from './oidc/provider.ts';
import type { ReadCache } from './rest/read-cache.ts';

/** Stateless across instances. */
export interface Services {
  readonly config: Config;
  readonly orm: MikroORM;
  readonly signingKeys: SigningKeyStore;
  readonly cursors: CursorCodec;
  readonly clientSecrets: SecretBox;
  /** src/domain/stored-secrets.ts. */
  readonly storedSecrets: SecretBox;
  /** Publish after the change has committed. */
  readonly invalidations: InvalidationBus;
  readonly apiKeys: ApiKeyCache;
  readonly sessionValidations: SessionValidationCache;
  /** One per sign-in surface. */
  readonly oidc: OidcProvider;
  readonly surfaces: SurfaceRouter;
  readonly surfaceSettings: SurfaceSettingsCache;
  readonly readCache: ReadCache;
  /** What an uncounted refusal waits: how long this instance's failed sign-ins take to count. */
  readonly refusalTiming: RefusalTiming;
  /** Wake it once queued mail has committed. */
  readonly outbox: OutboxWaker;
  /** Analytics' days and the audit retention's cutoff. */
  readonly clock: Clock;
  /** Written at least every second (src/domain/audit/auth-events.ts). */
  readonly tokenEvents: TokenEventWriter;
  /** When records may have committed. */
  readonly auditWaker: AuditWaker;
}

/** What a domain function reaches, through its Scope or as a parameter (never the whole of Services): not the OP
 *  (src/oidc/), the REST read cache (src/rest/), the token events nor the audit waker. */
export type DomainServices = Pick<
  Services,
  | 'config'
  | 'orm'
  | 'clock'
  | 'cursors'
  | 'clientSecrets'
  | 'storedSecrets'
  | 'signingKeys'
  | 'invalidations'
  | 'outbox'
  | 'apiKeys'
  | 'sessionValidations'
  | 'surfaces'
  | 'surfaceSettings'
  | 'refusalTiming'
>;
