import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from './config.ts';
import type { ClientSecretBox } from './auth/client-secrets.ts';
import type { SigningKeyStore } from './auth/signing-keys.ts';
import type { SurfaceRouter } from './domain/domains/surfaces.ts';
import type { CursorCodec } from './domain/pagination.ts';
import type { OidcProvider } from './oidc/provider.ts';

/** The process-wide collaborators a request context is built from. Stateless across instances. */
export interface Services {
  readonly config: Config;
  readonly orm: MikroORM;
  readonly signingKeys: SigningKeyStore;
  readonly cursors: CursorCodec;
  readonly clientSecrets: ClientSecretBox;
  /** The OAuth 2.0 / OIDC providers (src/oidc/), one per sign-in surface. */
  readonly oidc: OidcProvider;
  /** Which sign-in surface (issuer) a request's Host, a tenant path or a token's `iss` is. */
  readonly surfaces: SurfaceRouter;
}
