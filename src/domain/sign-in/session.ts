/**
 * How long a browser session lives: a signed-in one, 14 days from its last use. One without an account (the device
 * page's or the logout page's, kept for their forms' xsrf tokens) as long as an interaction: those pages are open to
 * anyone, and each visit without cookies makes one.
 */
const SIGNED_IN_SESSION_SECONDS = 14 * 24 * 3600;
export const INTERACTION_SECONDS = 3600;

export const sessionSeconds = (session: { accountId?: string | undefined }) =>
  session.accountId === undefined ? INTERACTION_SECONDS : SIGNED_IN_SESSION_SECONDS;
