/** The oidc-provider internals src/oidc/overrides.ts uses beyond its typed API (checked with OVERRIDES_CHECKED_WITH). */
declare module 'oidc-provider/lib/helpers/re_render_errors.js' {
  /** A user code already used: oidc-provider answers it with the user-code input page again (`userCode` prefilled). */
  export class AlreadyUsedError extends Error {
    constructor(userCode?: string);
    readonly userCode?: string;
  }
}
