/**
 * The oidc-provider internals used beyond its typed API, by src/oidc/overrides.ts and src/oidc/overload.ts (checked with
 * OVERRIDES_CHECKED_WITH).
 */
declare module 'oidc-provider/lib/helpers/re_render_errors.js' {
  /** A user code already used: oidc-provider answers it with the user-code input page again (`userCode` prefilled). */
  export class AlreadyUsedError extends Error {
    constructor(userCode?: string);
    readonly userCode?: string;
  }
}

declare module 'oidc-provider/lib/shared/error_handler.js' {
  import type { KoaContextWithOIDC } from 'oidc-provider';
  /** The error handling of the OP's endpoints (but the authorization's), emitting `eventName` for an exposed error. */
  export default function getErrorHandler(eventName?: string): (ctx: KoaContextWithOIDC, next: () => Promise<unknown>) => Promise<void>;
}
