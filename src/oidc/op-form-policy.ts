import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Surface } from '../domain/domains/surfaces.ts';
import type { SamlSignOut } from '../domain/sign-in/saml-logout.ts';
import { cspSource } from '../pages/pages.ts';
import { isAccountSwitchReturn } from './overrides.ts';
import { idpFormTargets } from './saml-sign-out.ts';

/** The page is oidc-provider's own self-submitting form. */
const OP_SCRIPT = /(?:^|;)\s*script-src[^;]*'sha256-/;

/**
 * Pages start at `form-action 'none'`; browsers check form-action on redirects after a POST too, so the policy names
 * the OP and the client URIs the OP settled (form_post, logout, account switch), read once it has answered, and for an
 * account switch the SAML IdP's single logout its confirmation goes through (saml-sign-out.ts).
 */
export function allowOpFormTargets(samlSignOut: SamlSignOut | undefined, surface: Surface) {
  return async function opFormTargets(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
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
    const switchReturn = ctx.oidc?.session?.state?.['postLogoutRedirectUri'];
    if (typeof switchReturn === 'string' && isAccountSwitchReturn(ctx.oidc, switchReturn)) {
      for (const source of await idpFormTargets(samlSignOut, ctx, surface)) targets.add(source);
    }
    ctx.set('content-security-policy', policy.replace(/form-action [^;]*/, `form-action ${[...targets].join(' ')}`));
  };
}
