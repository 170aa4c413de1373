import { interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { ACR_MULTI_FACTOR, asksMultiFactor, POLICY_STEP_REASON, sessionOwesStep, STEP_UP_REASON } from '../domain/mfa/requirement.ts';
import { SIGN_IN_REFUSALS, SignInRefusal, type SilentError } from '../domain/sign-in/refusals.ts';
import { revokedTenants } from '../domain/sessions/revoked-sign-ins.ts';
import { sessionSignIn, signsInToRevokedTenant, type SignInTarget } from '../domain/sign-in/sign-in.ts';
import { accountTenants, sessionMfaPolicy } from './account.ts';
import { mfaCheckedAtOf } from './overrides.ts';
import { endsSignIn, grantTenant, saveGrantForTenant } from './grant-tenant.ts';
import { opRequestId } from './op-request-id.ts';
import { gatehouseData } from './clients.ts';
import type { OidcDependencies, SignInRules, SignInTargets } from './configuration.ts';

/** The OP's policies for requests that may go on without the hosted pages; the decisions are src/domain/sign-in/'s. */

type Grant = InstanceType<Provider['Grant']>;

/** Not when the user left its tenant or the request names another: the pages decide afresh, never the wrong tenant. */
export async function loadExistingGrant(deps: OidcDependencies, signIn: () => SignInRules, policy: Policy, ctx: KoaContextWithOIDC) {
  const fresh = ctx.oidc.result?.consent?.grantId;
  if (fresh !== undefined) return ctx.oidc.provider.Grant.find(fresh);
  const kept = DEVICE_ROUTES.has(ctx.oidc.route) ? undefined : await fittingSessionGrant(deps, ctx);
  await noteRevokedSignIn(deps, signIn().target, ctx, kept);
  if (!ctx.oidc.promptPending('none') || (kept !== undefined && grantsRequestedScopes(ctx, kept))) return kept;
  return silentGrant(deps, signIn().target, policy, ctx, kept);
}

/** Each approval gets a grant of its own, so devices are revoked apart. */
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

const revokedSignIns = new WeakSet<KoaContextWithOIDC>();

/** The kept grant's tenant, else the pages' choice. */
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

function grantsRequestedScopes(ctx: KoaContextWithOIDC, grant: Grant): boolean {
  const holds = (encountered: string, scopes: Iterable<string>) => {
    const granted = new Set(encountered.split(' '));
    return [...scopes].every((scope) => granted.has(scope));
  };
  return (
    holds(grant.getOIDCScopeEncountered(), ctx.oidc.requestParamOIDCScopes) &&
    requestedResourceScopes(ctx).every(([indicator, scopes]) => holds(grant.getResourceScopeEncountered(indicator), scopes))
  );
}

/** An API resource's permissions the request asks as scopes, per resource named: what oidc-provider's consent checks. */
function requestedResourceScopes(ctx: KoaContextWithOIDC): [indicator: string, scopes: string[]][] {
  const requested = [...ctx.oidc.requestParamScopes];
  return Object.entries(ctx.oidc.resourceServers ?? {}).map(([indicator, server]) => [indicator, requested.filter((scope) => server.scopes.has(scope))]);
}

/** What the pages' consent adds (interactions.ts), without a page. */
function grantRequestedScopes(ctx: KoaContextWithOIDC, grant: Grant): void {
  grant.addOIDCScope(ctx.oidc.requestParamOIDCScopes);
  for (const [indicator, scopes] of requestedResourceScopes(ctx)) if (scopes.length > 0) grant.addResourceScope(indicator, scopes);
}

const silentRefusals = new WeakMap<KoaContextWithOIDC, SilentError>();
const TENANT_SWITCH_REFUSAL = SIGN_IN_REFUSALS.tenant_switch_unconfirmed.silent;

type SilentDecision =
  | { readonly kind: 'kept'; readonly grant: Grant }
  | { readonly kind: 'tenant'; readonly accountId: string; readonly clientId: string; readonly applicationId: string; readonly tenantId: string | null }
  | { readonly kind: 'refused'; readonly error: SilentError };

/** prompt=none gets what the pages would give without showing one (consent is implicit, docs/decisions.md); else refused. */
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
  // Refused anyway by a later check: nothing is written for a request that fails.
  if (await promptsAnyway(policy, ctx)) return kept;
  const replaced = decision.kind === 'tenant' ? ctx.oidc.session?.grantIdFor(decision.clientId) : undefined;
  // Ending the client's sign-in to another tenant is the user's to confirm, on a page: never a silent request's.
  if ((await endsSignIn(deps.orm, replaced)) !== undefined) {
    silentRefusals.set(ctx, TENANT_SWITCH_REFUSAL);
    return kept;
  }
  const grant = decision.kind === 'kept' ? decision.grant : new ctx.oidc.provider.Grant({ accountId: decision.accountId, clientId: decision.clientId });
  grantRequestedScopes(ctx, grant);
  if (decision.kind === 'tenant') {
    await saveGrantForTenant(deps, grant, { applicationId: decision.applicationId, tenantId: decision.tenantId, inBrowserSession: true }, replaced);
  } else await grant.save();
  return grant;
}

export type Policy = ReturnType<typeof interactionPolicy.base>;

const ANSWERED_BY_THE_GRANT: ReadonlySet<string> = new Set(['op_scopes_missing', 'op_claims_missing', 'rs_scopes_missing']);

/**
 * A login check (max_age, a hint naming another user) or a consent check the grant does not answer. oidc-provider runs
 * the policy after the grant is loaded, so this runs first: no silent grant is saved for a request then refused.
 */
async function promptsAnyway(policy: Policy, ctx: KoaContextWithOIDC): Promise<boolean> {
  for (const prompt of policy) {
    for (const check of prompt.checks) {
      if (!ANSWERED_BY_THE_GRANT.has(check.reason) && (await check.check(ctx))) return true;
    }
  }
  return false;
}

/** The pages' rules: a form or error page is `login_required`, a tenant choice `account_selection_required`. */
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
  // Without a kept grant: the tenant named or the only one, else the user's choice.
  if (signIn.decision?.kind !== 'tenant') return { kind: 'refused', error: SIGN_IN_REFUSALS.tenant_choice_needed.silent };
  return { kind: 'tenant', accountId: signIn.user.id, clientId: client.clientId, applicationId: data.applicationId, tenantId: signIn.decision.tenantId };
}

const SIGN_IN_REVOKED_REASON = 'sign_in_revoked';

/**
 * Plus a login when the session's account cannot serve the request, its sign-in was revoked, or `acr_values` asks for
 * MFA it lacked (oidc-provider checks only `claims`' essential acr). prompt=none errors per OIDC Core 3.1.2.6.
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
  policy.get('login')?.checks.add(
    new Check(POLICY_STEP_REASON, 'Multi-factor authentication is required', 'interaction_required', (ctx) => {
      const { session } = ctx.oidc;
      const pool = sessionMfaPolicy(ctx);
      if (session?.accountId === undefined || ctx.oidc.result?.login !== undefined || pool === undefined) return Check.NO_NEED_TO_PROMPT;
      return sessionOwesStep(pool, { acr: session.acr, loginTs: session.loginTs, checkedAt: mfaCheckedAtOf(session) }) ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT;
    }),
  );
  policy.get('consent')?.checks.add(
    new Check('tenant_choice', 'The user belongs to several tenants and the request names none', 'account_selection_required', (ctx) =>
      silentRefusals.get(ctx) === 'account_selection_required' ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT,
    ),
    0,
  );
  policy.get('consent')?.checks.add(
    // Says nothing of the other tenant: the description passes through the browser.
    new Check('tenant_switch', 'End-User interaction is required', TENANT_SWITCH_REFUSAL, (ctx) =>
      silentRefusals.get(ctx) === TENANT_SWITCH_REFUSAL ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT,
    ),
    0,
  );
  return policy;
}
