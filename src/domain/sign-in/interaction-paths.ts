/** Where every interaction's pages live; also the path of a cookie set before its interaction exists (SAML's unsolicited). */
export const INTERACTION_ROOT = '/interaction';

/**
 * The one writer of a sign-in interaction's paths: the OP sends the browser to `page` (src/oidc/configuration.ts), the
 * hosted pages link, post and redirect to the others, and scope the interaction's cookies to `page`.
 */
export function interactionPaths(uid: string) {
  const page = `${INTERACTION_ROOT}/${encodeURIComponent(uid)}`;
  return {
    page,
    login: `${page}/login`,
    tenant: `${page}/tenant`,
    switch: `${page}/switch`,
    signup: `${page}/signup`,
    forgot: `${page}/forgot`,
    verify: `${page}/verify`,
    mfa: `${page}/mfa`,
    password: `${page}/password`,
    passkey: `${page}/passkey`,
    passkeySignup: `${page}/passkey-signup`,
    passkeySignupCode: `${page}/passkey-signup/code`,
    passkeySignupKey: `${page}/passkey-signup/key`,
    emailLink: `${page}/email-link`,
    emailCode: `${page}/email-code`,
    code: `${page}/code`,
    emailLinkConfirm: `${page}/email-link/confirm`,
    emailLinkRefuse: `${page}/email-link/refuse`,
    /** An IdP's answer, and the "Continue as …?" of an unsolicited one. */
    saml: `${page}/saml`,
    samlStart: (providerId: string) => `${page}/saml/${providerId}`,
    upstreamStart: (providerId: string) => `${page}/oauth/${providerId}`,
    upstreamCallback: (providerId: string) => `${page}/oauth/${providerId}/callback`,
  };
}
