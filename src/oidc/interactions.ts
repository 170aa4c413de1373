import type { MikroORM } from '@mikro-orm/postgresql';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors, type InteractionResults } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { acrOf } from '../domain/mfa/requirement.ts';
import { forgetRevokedSignIn, revokedTenants } from '../domain/sessions/revoked-sign-ins.ts';
import { SIGN_IN_REFUSALS, SignInRefusal, TenantSwitchUnconfirmed } from '../domain/sign-in/refusals.ts';
import type { SignIn, SignInMethod } from '../domain/sign-in/sign-in.ts';
import { mayActNow, readSignInUser, type SignInUser } from '../domain/users/sign-in-user.ts';
import { isUuid } from '../ids.ts';
import type { GrantRevocationDependencies } from './grant-revocation.ts';
import { endsSignIn, grantTenant, saveGrantForTenant } from './grant-tenant.ts';
import { madeGrant } from './untaken-device-grants.ts';
import { gatehouseData, servedClientData, type GatehouseClientData } from './clients.ts';
import { browserSession } from './account-session.ts';
import type { InteractionBinding } from './cookies.ts';
import type { Surface } from '../domain/domains/surfaces.ts';
import { clientHomeUrl } from '../domain/oauth-clients/client-home.ts';
import { OIDC_SCOPES } from './configuration.ts';
import { signInMethodsOf } from './overrides.ts';

/**
 * The seam between the OP and the hosted pages, reached through services.oidc so the pages import nothing of src/oidc/.
 * Consent is implicit: every client is its application's own (first party), so what it asks for is granted.
 */
export type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

export interface HostedInteraction {
  readonly interaction: Interaction;
  readonly client: { readonly clientId: string; readonly data: GatehouseClientData };
}

/** Only when it is `uid`, and this browser started it: an old or foreign uid in the path is not it. */
export async function loadInteraction(provider: Provider, binding: InteractionBinding, req: IncomingMessage, res: ServerResponse, uid: string): Promise<HostedInteraction> {
  let interaction: Interaction;
  try {
    interaction = await provider.interactionDetails(req, res);
  } catch (error) {
    if (error instanceof errors.SessionNotFound) throw new SignInRefusal('interaction_expired');
    throw error;
  }
  if (interaction.uid !== uid || !binding.holds(req.headers, uid)) throw new SignInRefusal('interaction_expired');
  const clientId = String(interaction.params['client_id']);
  const data = gatehouseData(await provider.Client.find(clientId));
  if (data === undefined) throw new SignInRefusal('client_gone');
  return { interaction, client: { clientId, data } };
}

export interface SpentSignIn {
  /** The tenant whose look its page takes: the client's, else the surface's. */
  readonly issuer: string;
  readonly tenantRef: string | null;
  readonly client: { readonly clientId: string; readonly name: string; readonly data: GatehouseClientData };
  /** A URI the client registered, never one the request names. */
  readonly home: string;
  readonly signedIn: boolean;
}

/** Undefined for a client gone, not served on `surface` now, or without a page to link to. */
export async function spentSignIn(provider: Provider, surface: Surface, clientId: string, req: IncomingMessage, res: ServerResponse): Promise<SpentSignIn | undefined> {
  const data = await servedClientData(provider, clientId);
  if (data === undefined) return undefined;
  const client = await provider.Client.find(clientId);
  const home = clientHomeUrl({ type: data.type, redirectUris: client?.redirectUris ?? [], initiateLoginUri: data.initiateLoginUri ?? null }, surface.issuer);
  if (home === undefined) return undefined;
  const session = await browserSession(provider, surface, data.applicationId, req, res);
  const signedIn = session.accountId !== undefined && session.grantIdFor(clientId) !== undefined;
  const tenantRef = data.tenantId ?? (surface.kind === 'tenant_path' ? surface.tenantRef : null);
  return { issuer: surface.issuer, tenantRef, client: { clientId, name: client?.clientName ?? '', data }, home, signedIn };
}

export interface SessionSignIn {
  readonly methods: readonly SignInMethod[];
  /** Its `loginTs`. */
  readonly signedInAt: number | undefined;
}

/** While the session is still theirs: a step-up goes on from it. */
export async function sessionSignIn(provider: Provider, interaction: Interaction): Promise<SessionSignIn> {
  const { uid, accountId } = interaction.session ?? {};
  const session = uid === undefined ? undefined : await provider.Session.findByUid(uid);
  if (session === undefined || session.accountId !== accountId) return { methods: [], signedInAt: undefined };
  return { methods: signInMethodsOf(session) as SignInMethod[], signedInAt: session.loginTs };
}

async function signedInUser(orm: MikroORM, applicationId: string, signIn: SignIn): Promise<SignInUser | null> {
  const { verified } = signIn;
  if (verified !== undefined) return verified.id === signIn.userId && verified.applicationId === applicationId ? verified : null;
  if (!isUuid(signIn.userId)) return null;
  const user = await readSignInUser(orm.em, applicationId, { id: signIn.userId });
  return user !== null && mayActNow(user) ? user : null;
}

export async function finishInteraction(interaction: Interaction, result: InteractionResults): Promise<string> {
  interaction.result = { ...interaction.lastSubmission, ...result };
  await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  return interaction.returnTo;
}

const refused = (detail: string) => new SignInRefusal('account_refused', undefined, detail);

/** RFC 6749 4.1.2.1, RFC 8628 3.5. An earlier submission's login is dropped: it would make the OP switch accounts first. */
export async function refuseInteraction(interaction: Interaction): Promise<string> {
  const { error, description } = SIGN_IN_REFUSALS.account_refused.oauth;
  interaction.result = { error, error_description: description };
  await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  return interaction.returnTo;
}

/**
 * A session's grant is reused only for the same account and tenant. Throws SignInRefusal for a user the application may
 * not sign in, TenantSwitchUnconfirmed for a consent, or a sign-in proven by nothing in this interaction, that would end
 * the client's sign-in to another tenant unconfirmed.
 */
export async function interactionResult(
  provider: Provider,
  deps: GrantRevocationDependencies,
  interaction: Interaction,
  signIn: SignIn | undefined,
): Promise<InteractionResults> {
  const { orm } = deps;
  // A device's sign-in is the device's: its grant is no browser session's (expiresWithSession).
  const inBrowserSession = interaction.deviceCode === undefined;
  const clientId = String(interaction.params['client_id']);
  const client = await provider.Client.find(clientId);
  const application = gatehouseData(client)?.applicationId;
  if (application === undefined) throw refused('unknown client');

  const sessionGrant = async (accountId: string) => {
    const existing = interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId);
    return existing?.accountId === accountId ? existing : undefined;
  };
  const newGrant = (accountId: string) => new provider.Grant({ accountId, clientId });
  const sessionGrantId = async (accountId: string) => {
    const uid = interaction.session?.accountId === accountId ? interaction.session.uid : undefined;
    return uid === undefined ? undefined : (await provider.Session.findByUid(uid))?.grantIdFor(clientId);
  };
  const browserSession = (accountId: string) => {
    const uid = interaction.session?.accountId === accountId ? interaction.session.uid : undefined;
    return uid === undefined ? undefined : { applicationId: application, uid, userId: accountId };
  };

  // A consent prompt signed in by another user switches the session's account, as a login does (the OP signs the other out).
  const switching = signIn !== undefined && signIn.userId !== interaction.session?.accountId;
  if (interaction.prompt.name === 'login' || (interaction.prompt.name === 'consent' && switching)) {
    if (signIn === undefined) throw refused('the login prompt needs a signed-in user');
    const user = await signedInUser(orm, application, signIn);
    if (user === null) throw refused('no such active user in the client’s application');
    if (signIn.tenantId !== null && !user.tenantIds.includes(signIn.tenantId)) throw refused('the user is not a member of the tenant');
    // Another tenant gets a grant of its own: tokens already issued from the old one keep their tenant.
    const existing = await sessionGrant(user.id);
    const sameTenant = existing?.jti !== undefined && (await grantTenant(orm, existing.jti)) === signIn.tenantId;
    const grant = existing !== undefined && sameTenant ? existing : newGrant(user.id);
    const scope = interaction.params['scope'];
    const requested = typeof scope === 'string' ? scope.split(' ') : [];
    grant.addOIDCScope(requested.filter((scope) => OIDC_SCOPES.includes(scope)));
    const replaced = inBrowserSession ? await sessionGrantId(user.id) : undefined;
    const session = browserSession(user.id);
    // Proven by nothing here (a step-up a remembered browser spared): as a consent, no tenant revoked in this browser.
    if (signIn.provenHere !== true && signIn.tenantId !== null && session !== undefined && (await revokedTenants(orm.em.getConnection(), session)).has(signIn.tenantId)) {
      throw refused('the sign-in to the tenant was revoked in this browser session');
    }
    // A sign-in reached with no proof given here (a session's step-up the browser was remembered for) is a GET's alone.
    if (signIn.provenHere !== true && signIn.switchConfirmed !== true && replaced !== undefined && replaced !== grant.jti) {
      const ended = await endsSignIn(orm, replaced);
      if (ended !== undefined && ended.tenantId !== signIn.tenantId) throw new TenantSwitchUnconfirmed(client?.clientName ?? '', ended.tenantId);
    }
    const place = { applicationId: application, tenantId: signIn.tenantId, inBrowserSession };
    const grantId = await saveGrantForTenant(deps, grant, place, replaced);
    // A credential was proven: the browser session may go on silently to the tenant.
    if (signIn.provenHere === true && session !== undefined && signIn.tenantId !== null) await forgetRevokedSignIn(orm.em.getConnection(), session, signIn.tenantId);
    // RFC 8176 `amr`, and `acr` from it: none when no credential was checked.
    const proved = signIn.amr === undefined ? {} : { amr: [...signIn.amr], acr: acrOf(signIn.amr) };
    // The OP keeps `methods` with its session (overrides.ts).
    const methods = signIn.methods === undefined ? {} : { methods: [...signIn.methods] };
    const ts = signIn.signedInAt === undefined ? {} : { ts: signIn.signedInAt };
    const judged = signIn.mfaCheckedAt === undefined ? {} : { mfaCheckedAt: signIn.mfaCheckedAt };
    return { login: { accountId: user.id, ...proved, ...methods, ...ts, ...judged }, consent: grant === existing ? { grantId } : madeGrant(grantId) };
  }

  if (interaction.prompt.name === 'consent') {
    const accountId = interaction.session?.accountId;
    if (accountId === undefined) throw refused('consent without a signed-in session');
    const kept = await sessionGrant(accountId);
    // The pages decide no tenant for a consent of the client's grant: gone since (revoked, by the client too), a grant made
    // here would be of no tenant, whatever the user's or client's.
    if (kept === undefined && signIn === undefined) throw refused('the client’s grant ended before its consent was answered');
    // A consent proves no credential: no new grant of a tenant whose sign-in was revoked in the browser session.
    const tenantId = signIn?.tenantId ?? null;
    const session = browserSession(accountId);
    if (kept === undefined && tenantId !== null && session !== undefined && (await revokedTenants(orm.em.getConnection(), session)).has(tenantId)) {
      throw refused('the sign-in to the tenant was revoked in this browser session');
    }
    const replaced = kept === undefined && inBrowserSession ? await sessionGrantId(accountId) : undefined;
    const ended = await endsSignIn(orm, replaced);
    if (ended !== undefined && signIn?.switchConfirmed !== true) throw new TenantSwitchUnconfirmed(client?.clientName ?? '', ended.tenantId);
    const grant = kept ?? newGrant(accountId);
    const details = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (details.missingOIDCScope !== undefined) grant.addOIDCScope(details.missingOIDCScope);
    if (details.missingOIDCClaims !== undefined) grant.addOIDCClaims(details.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes);
    if (kept !== undefined) return { consent: { grantId: await grant.save() } };
    // A grant made here takes the tenant the pages name.
    const place = { applicationId: application, tenantId, inBrowserSession };
    return { consent: madeGrant(await saveGrantForTenant(deps, grant, place, replaced)) };
  }
  throw refused(`unknown prompt ${interaction.prompt.name}`);
}
