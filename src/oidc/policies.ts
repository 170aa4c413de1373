import { interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { ACR_MULTI_FACTOR, asksMultiFactor, STEP_UP_REASON } from '../domain/mfa/requirement.ts';
import { SIGN_IN_REFUSALS, SignInRefusal, type SilentError } from '../domain/sign-in/refusals.ts';
import { revokedTenants } from '../domain/sessions/revoked-sign-ins.ts';
import { sessionSignIn, signsInToRevokedTenant, type SignInTarget } from '../domain/sign-in/sign-in.ts';
import { accountTenants } from './account.ts';
import { grantTenant, opRequestId, saveGrantForTenant } from './adapter.ts';
import { gatehouseData } from './clients.ts';
import type { OidcDependencies, SignInRules, SignInTargets } from './configuration.ts';

/**
 * The OP's policies for a request that may go on without the hosted pages: which grant of the browser session still
 * fits it (loadExistingGrant), what a silent request (prompt=none) gets (silentGrant), and when the pages must be
 * asked anyway (interactionsPolicy). The decisions are the sign-in domain's (src/domain/sign-in/).
 */

type Grant = InstanceType<Provider['Grant']>;

/**
 * The session's grant for the client, unless its tenant is one the user no longer belongs to or the request names
 * another tenant: the hosted pages then decide the tenant afresh, so a signed-in user never gets a token of the wrong
 * tenant. A grant the pages have just made (`result.consent`) is the one; silent requests decide here (silentGrant).
 */
export async function loadExistingGrant(deps: OidcDependencies, signIn: () => SignInRules, policy: Policy, ctx: KoaContextWithOIDC) {
  const fresh = ctx.oidc.result?.consent?.grantId;
  if (fresh !== undefined) return ctx.oidc.provider.Grant.find(fresh);
  const kept = DEVICE_ROUTES.has(ctx.oidc.route) ? undefined : await fittingSessionGrant(deps, ctx);
  await noteRevokedSignIn(deps, signIn().target, ctx, kept);
  if (!ctx.oidc.promptPending('none') || (kept !== undefined && grantsRequestedScopes(ctx, kept))) return kept;
  return silentGrant(deps, signIn().target, policy, ctx, kept);
}

/** Where a device code is approved: each approval gets a grant of its own, so devices are revoked apart. */
const DEVICE_ROUTES: ReadonlySet<string> = new Set(['code_verification', 'device_resume']);

async function fittingSessionGrant(deps: OidcDependencies, ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
  const grantId = ctx.oidc.client === undefined ? undefined : ctx.oidc.session?.grantIdFor(ctx.oidc.client.clientId);
  if (grantId === undefined || !(await grantFitsRequest(deps, ctx, grantId))) return undefined;
  return ctx.oidc.provider.Grant.find(grantId);
}

async function grantFitsRequest(deps: OidcDependencies, ctx: KoaContextWithOIDC, grantId: string): Promise<boolean> {
  const granted = await grantTenant(deps.orm, grantId);
  if (granted !== null && !accountTenants(ctx.oidc.account).includes(granted)) return false;
  const requested = ctx.oidc.params?.['tenant'];
  if (typeof requested !== 'string' || requested === '') return true;
  const applicationId = gatehouseData(ctx.oidc.client)?.applicationId;
  if (granted === null || applicationId === undefined) return false;
  return (await deps.surfaces.findTenantId(applicationId, requested)) === granted;
}

/** Requests that would sign the session's user in to a tenant whose sign-in was revoked in it: a login is asked. */
const revokedSignIns = new WeakSet<KoaContextWithOIDC>();

/** Notes the request when its silent sign-in would go to a revoked tenant: the kept grant's, else the pages' choice. */
async function noteRevokedSignIn(deps: OidcDependencies, targets: SignInTargets, ctx: KoaContextWithOIDC, kept: Grant | undefined): Promise<void> {
  const { session, client } = ctx.oidc;
  const data = gatehouseData(client);
  const accountId = session?.accountId;
  if (client === undefined || data === undefined || accountId === undefined || session?.uid === undefined) return;
  const revoked = await revokedTenants(deps.orm.em.getConnection(), { applicationId: data.applicationId, uid: session.uid, userId: accountId });
  if (revoked.size === 0) return;
  if (kept !== undefined) {
    const tenantId = kept.jti === undefined ? null : await grantTenant(deps.orm, kept.jti);
    if (tenantId !== null && revoked.has(tenantId)) revokedSignIns.add(ctx);
    return;
  }
  let target: SignInTarget;
  try {
    target = await targets(opRequestId(ctx), { clientId: client.clientId, data }, ctx.oidc.params?.['tenant']);
  } catch (error) {
    if (error instanceof SignInRefusal) return;
    throw error;
  }
  if (await signsInToRevokedTenant(target, accountId, revoked)) revokedSignIns.add(ctx);
}

/** Whether the grant holds every OpenID scope the request asks for (what the consent prompt checks). */
function grantsRequestedScopes(ctx: KoaContextWithOIDC, grant: Grant): boolean {
  const granted = new Set(grant.getOIDCScopeEncountered().split(' '));
  return [...ctx.oidc.requestParamOIDCScopes].every((scope) => granted.has(scope));
}

/** The refusal silentGrant decided for a request, which interactionsPolicy answers. */
const silentRefusals = new WeakMap<KoaContextWithOIDC, SilentError>();

type SilentDecision =
  /** The session's grant for the client stands (and takes the scopes asked for). */
  | { readonly kind: 'kept'; readonly grant: Grant }
  /** A new grant of the account for the client, signed in to this tenant of the client's application. */
  | { readonly kind: 'tenant'; readonly accountId: string; readonly clientId: string; readonly applicationId: string; readonly tenantId: string | null }
  | { readonly kind: 'refused'; readonly error: SilentError };

/**
 * prompt=none gets what the hosted pages would give without showing one (consent is implicit, docs/decisions.md), so
 * silent SSO works across the application's clients and tenants. Where the pages would show one, it is refused.
 */
async function silentGrant(
  deps: OidcDependencies,
  targets: SignInTargets,
  policy: Policy,
  ctx: KoaContextWithOIDC,
  kept: Grant | undefined,
): Promise<Grant | undefined> {
  const decision = await silentDecision(targets, ctx, kept);
  if (decision.kind === 'refused') {
    silentRefusals.set(ctx, decision.error);
    return kept;
  }
  // Refused anyway by a check that runs after this one (the policy's): nothing is written for a request that fails.
  if (await promptsAnyway(policy, ctx)) return kept;
  const grant = decision.kind === 'kept' ? decision.grant : new ctx.oidc.provider.Grant({ accountId: decision.accountId, clientId: decision.clientId });
  grant.addOIDCScope(ctx.oidc.requestParamOIDCScopes);
  if (decision.kind === 'tenant') {
    const replaced = ctx.oidc.session?.grantIdFor(decision.clientId);
    await saveGrantForTenant(deps, grant, { applicationId: decision.applicationId, tenantId: decision.tenantId, inBrowserSession: true }, replaced);
  } else await grant.save();
  return grant;
}

export type Policy = ReturnType<typeof interactionPolicy.base>;

/** The consent checks a silent grant answers (it grants what the request asks for). */
const ANSWERED_BY_THE_GRANT: ReadonlySet<string> = new Set(['op_scopes_missing', 'op_claims_missing', 'rs_scopes_missing']);

/**
 * Whether the policy asks for a page whatever the grant: a check of the login prompt (max_age, an id_token_hint or
 * claims naming another user, …) or of consent the grant does not answer (a native client). oidc-provider runs the
 * policy after the grant is loaded, so this runs first: no silent grant is saved for a request then refused.
 */
async function promptsAnyway(policy: Policy, ctx: KoaContextWithOIDC): Promise<boolean> {
  for (const prompt of policy) {
    for (const check of prompt.checks) {
      if (!ANSWERED_BY_THE_GRANT.has(check.reason) && (await check.check(ctx))) return true;
    }
  }
  return false;
}

/**
 * What the hosted pages' consent step would do with the session's user, by their rules (src/domain/sign-in/sign-in.ts):
 * `login_required` where they show the sign-in form or an error page, `account_selection_required` where they ask the
 * user to choose among their tenants.
 */
async function silentDecision(targets: SignInTargets, ctx: KoaContextWithOIDC, kept: Grant | undefined): Promise<SilentDecision> {
  const loginRequired = { kind: 'refused', error: SIGN_IN_REFUSALS.login_needed.silent } as const;
  const { client, account } = ctx.oidc;
  const data = gatehouseData(client);
  if (client === undefined || data === undefined || account === undefined) return loginRequired;
  let target: SignInTarget;
  try {
    target = await targets(opRequestId(ctx), { clientId: client.clientId, data }, ctx.oidc.params?.['tenant']);
  } catch (error) {
    if (error instanceof SignInRefusal) return { kind: 'refused', error: error.rule.silent ?? loginRequired.error };
    throw error;
  }
  const signIn = await sessionSignIn(target, account.accountId, kept !== undefined);
  if (signIn === null) return loginRequired;
  if (kept !== undefined) return { kind: 'kept', grant: kept };
  // Without a kept grant, the tenant is decided: the one named or the only one, else the user's choice.
  if (signIn.decision?.kind !== 'tenant') return { kind: 'refused', error: SIGN_IN_REFUSALS.tenant_choice_needed.silent };
  return { kind: 'tenant', accountId: signIn.user.id, clientId: client.clientId, applicationId: data.applicationId, tenantId: signIn.decision.tenantId };
}

/** The login prompt's reason when the request's tenant had its sign-in revoked in the browser session. */
const SIGN_IN_REVOKED_REASON = 'sign_in_revoked';

/**
 * oidc-provider's prompts, plus a login when the session's account cannot serve this request (silentDecision), when its
 * tenant's sign-in was revoked in the browser session, or when `acr_values` asks for the multi-factor acr the sign-in
 * did not give (oidc-provider checks only `claims`' essential acr, not offered). With prompt=none: `login_required`,
 * `account_selection_required` or `interaction_required` (OIDC Core 3.1.2.6). A sign-in the pages just made passes.
 */
export function interactionsPolicy() {
  const policy = interactionPolicy.base();
  const { Check } = interactionPolicy;
  policy.get('login')?.checks.add(
    // no_session's words: the description passes through the browser, and must not tell that it holds another account.
    new Check('account_unavailable', 'End-User authentication is required', 'login_required', (ctx) =>
      ctx.oidc.session?.accountId !== undefined && (ctx.oidc.account === undefined || silentRefusals.get(ctx) === 'login_required')
        ? Check.REQUEST_PROMPT
        : Check.NO_NEED_TO_PROMPT,
    ),
  );
  policy.get('login')?.checks.add(
    // A sign-in the pages have just made proved a credential (src/oidc/interactions.ts takes the mark away).
    new Check(SIGN_IN_REVOKED_REASON, 'End-User authentication is required', 'login_required', (ctx) =>
      ctx.oidc.result?.login === undefined && revokedSignIns.has(ctx) ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT,
    ),
  );
  policy.get('login')?.checks.add(
    new Check(STEP_UP_REASON, 'Multi-factor authentication is required', 'interaction_required', (ctx) =>
      ctx.oidc.session?.accountId !== undefined && ctx.oidc.result?.login === undefined && ctx.oidc.acr !== ACR_MULTI_FACTOR && asksMultiFactor(ctx.oidc.params?.['acr_values'])
        ? Check.REQUEST_PROMPT
        : Check.NO_NEED_TO_PROMPT,
    ),
  );
  policy.get('consent')?.checks.add(
    new Check('tenant_choice', 'The user belongs to several tenants and the request names none', 'account_selection_required', (ctx) =>
      silentRefusals.get(ctx) === 'account_selection_required' ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT,
    ),
    0,
  );
  return policy;
}
