/** Untyped internals used by overrides.ts and overload.ts, checked with OVERRIDES_CHECKED_WITH. */
declare module 'oidc-provider/lib/helpers/re_render_errors.js' {
  /** oidc-provider answers it with the user-code input page again (`userCode` prefilled). */
  export class AlreadyUsedError extends Error {
    constructor(userCode?: string);
    readonly userCode?: string;
  }
}

declare module 'oidc-provider/lib/shared/error_handler.js' {
  import type { KoaContextWithOIDC } from 'oidc-provider';
  /** Of every endpoint but the authorization's; emits `eventName` for an exposed error. */
  export default function getErrorHandler(eventName?: string): (ctx: KoaContextWithOIDC, next: () => Promise<unknown>) => Promise<void>;
}

declare module 'oidc-provider/lib/helpers/revoke.js' {
  import type { KoaContextWithOIDC } from 'oidc-provider';
  /** The grant's tokens revoked, and the grant itself by `revokeGrantPolicy`: what a refresh token's reuse does. */
  export default function revoke(ctx: KoaContextWithOIDC, grantId: string | undefined): Promise<void>;
}
