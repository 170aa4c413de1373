import type { KoaContextWithOIDC } from 'oidc-provider';
import { cspSource } from '../pages/pages.ts';

/** The page is oidc-provider's own self-submitting form. */
const OP_SCRIPT = /(?:^|;)\s*script-src[^;]*'sha256-/;

/**
 * Pages start at `form-action 'none'`; browsers check form-action on redirects after a POST too, so the policy names
 * the OP and the client URIs the OP settled (form_post, logout, account switch), read once it has answered.
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
