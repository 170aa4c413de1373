import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { ApiKeyCache } from './auth/api-key-cache.ts';
import type { SecretBox } from './auth/client-secrets.ts';
import type { SigningKeyStore } from './auth/signing-keys.ts';
import type { SurfaceRouter } from './domain/domains/surfaces.ts';
import type { AuditWaker } from './domain/audit-stream.ts';
import type { TokenEventWriter } from './domain/auth-events.ts';
import type { OutboxWaker } from './domain/email/deliver.ts';
import type { CursorCodec } from './domain/pagination.ts';
import type { InvalidationBus } from './events/invalidations.ts';
import type { RefusalTiming } from './domain/sign-in/refusal-timing.ts';
import type { SessionValidationCache } from './domain/sessions/validation-cache.ts';
import type { SurfaceSettingsCache } from './domain/sign-in/surface-settings.ts';
import type { OidcProvider } from './oidc/provider.ts';
import type { ReadCache } from './rest/read-cache.ts';

/** The process-wide collaborators a request context is built from. Stateless across instances. */
export interface Services {
  readonly config: Config;
  readonly orm: MikroORM;
  readonly signingKeys: SigningKeyStore;
  readonly cursors: CursorCodec;
  readonly clientSecrets: SecretBox;
  /** Seals the e-mail and auth providers' stored credentials (src/domain/stored-secrets.ts). */
  readonly storedSecrets: SecretBox;
  /** Tells every instance what its caches must forget; publish after the change has committed. */
  readonly invalidations: InvalidationBus;
  /** The API keys recently authenticated here (authenticate.ts). */
  readonly apiKeys: ApiKeyCache;
  /** The access tokens found valid recently here (src/domain/sessions/validation-cache.ts). */
  readonly sessionValidations: SessionValidationCache;
  /** The OAuth 2.0 / OIDC providers (src/oidc/), one per sign-in surface. */
  readonly oidc: OidcProvider;
  /** Which sign-in surface (issuer) a request's Host, a tenant path or a token's `iss` is. */
  readonly surfaces: SurfaceRouter;
  /** The sign-in surfaces' look and rules read recently here (src/domain/sign-in/surface-settings.ts). */
  readonly surfaceSettings: SurfaceSettingsCache;
  /** The management API's cached reads answered recently here (src/rest/read-cache.ts). */
  readonly readCache: ReadCache;
  /** How long this instance's failed sign-in attempts take to count: what an uncounted refusal waits. */
  readonly refusalTiming: RefusalTiming;
  /** This instance's e-mail outbox worker (src/domain/email/deliver.ts): wake it once queued mail has committed. */
  readonly outbox: OutboxWaker;
  /** The time of analytics' days and of the audit retention's cutoff (src/clock.ts). */
  readonly clock: Clock;
  /** Buffers the token endpoint's audit records and activity, written at least every second (src/domain/auth-events.ts). */
  readonly tokenEvents: TokenEventWriter;
  /** Wakes this instance's audit streams when records may have committed (src/domain/audit-stream.ts). */
  readonly auditWaker: AuditWaker;
}
