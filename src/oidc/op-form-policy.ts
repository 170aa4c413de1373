import type { KoaContextWithOIDC } from 'oidc-provider';
import { cspSource } from '../pages/pages.ts';

/** A policy oidc-provider added its inline script's hash to: the page is its own self-submitting form. */
const OP_SCRIPT = /(?:^|;)\s*script-src[^;]*'sha256-/;

/**
 * Where oidc-provider's own self-submitting forms may post (routes.ts starts every page at `form-action 'none'`):
 * form_post to the redirect URI, a logout to its sign-out and post-logout URI, an account switch through sign-out and
 * authorization to the redirect URI. Browsers check form-action on the redirects after the POST too, so the policy
 * names the OP and the request's client URIs as the OP settled them, read from its context once it has answered.
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
