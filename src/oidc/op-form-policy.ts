import type { KoaContextWithOIDC } from 'oidc-provider';
import { cspSource } from '../pages/pages.ts';

/** A policy oidc-provider added its inline script's hash to: the page is its own self-submitting form. */
const OP_SCRIPT = /(?:^|;)\s*script-src[^;]*'sha256-/;

/**
 * Where oidc-provider's own self-submitting forms may post, in their page's policy (routes.ts starts every page route
 * at `form-action 'none'`). It writes one for response_mode=form_post, to the redirect URI with the code; for a logout
 * with no session to confirm, to its sign-out and on to the post-logout redirect URI; and for a sign-in that switches
 * the session's account, to its sign-out, back to the authorization and on to the redirect URI. Browsers check
 * form-action on the redirects after the POST too, so the policy names the OP itself and the client URIs of the
 * request as the OP settled them (a redirect URI left out is the client's only one; a post-logout URI stays only when
 * registered; an unregistered redirect URI never gets a form). Read from the OP's context once it has answered: no
 * lookup of its own. Koa middleware for `provider.use`.
 */
export async function allowOpFormTargets(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
  await next();
  const policy = ctx.response.get('content-security-policy');
  if (!OP_SCRIPT.test(policy)) return;
  const params = ctx.oidc?.params;
  // A sign-in resumed to switch accounts has not restored the authorization's parameters yet: its interaction holds them.
  const stored = ctx.oidc?.entities.Interaction?.params;
  const targets = new Set(["'self'"]);
  for (const uri of [params?.['redirect_uri'], stored?.['redirect_uri'], params?.['post_logout_redirect_uri']]) {
    const source = cspSource(uri);
    if (source !== undefined) targets.add(source);
  }
  ctx.set('content-security-policy', policy.replace(/form-action [^;]*/, `form-action ${[...targets].join(' ')}`));
}
