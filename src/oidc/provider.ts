import { signOutAtIdp } from './saml-sign-out.ts';
import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import type { SignIn } from '../domain/sign-in/sign-in.ts';
import type { Surface } from '../domain/domains/surfaces.ts';
import { findAccount, findAccountOnce } from './account.ts';
import { ACCOUNT_RESPONSE_MODE, accountBrowser, returnToAccountPage, type AccountBrowser } from './account-session.ts';
import { isUuid } from '../ids.ts';
import { opRequestId } from './op-request-id.ts';
import { findSpentInteraction } from './spent-interactions.ts';
import { claimInteraction, type InteractionClaim } from './interaction-claims.ts';
import { resourceServersOf } from './api-resource-tokens.ts';
import { gatehouseData } from './clients.ts';
import { accessTokenClaims, configuration, issuedTenantOf, managementApi, type OidcDependencies } from './configuration.ts';
import { noteRequest } from '../observability/log.ts';
import { tokenGrants } from '../observability/metrics.ts';
import { paceDevicePolling } from './device-polling.ts';
import { signOutDevicePages } from './device-page-sign-out.ts';
import { interactionBinding, type InteractionBinding } from './cookies.ts';
import {
  finishInteraction,
  interactionResult,
  loadInteraction,
  refuseInteraction,
  sessionSignIn,
  type SessionSignIn,
  spentSignIn,
  type HostedInteraction,
  type Interaction,
  type SpentSignIn,
} from './interactions.ts';
import { introspectJwtAccessTokens } from './introspection.ts';
import { advertiseIssuedClaimsOnly, challengeClientAuthentication, endUntakenDeviceGrants, forbidCachingTokens, keepLogoutLanguage, refuseUnauthorizedClient } from './middleware.ts';
import { allowOpFormTargets } from './op-form-policy.ts';
import { opPages } from './op-pages.ts';
import { answeringOverloadIn, useAnsweringOverload } from './overload.ts';
import { applyOverrides } from './overrides.ts';
import { prefillUserCode } from './user-code-prefill.ts';

/** A surface out of the cache is rebuilt on its next request (~ms). */
export const MAX_CACHED_PROVIDERS = 256;

export interface BuiltProvider {
  readonly provider: Provider;
  readonly handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

/**
 * One instance per surface, as oidc-provider takes its issuer at construction; instances are stateless, so any replica
 * answers. Keyed by the whole surface (a hostname verified again by another owner is another surface).
 */
export class OidcProvider {
  private readonly deps: OidcDependencies;
  /** Read by the interaction's pages and its resume (routes.ts). */
  readonly binding: InteractionBinding;
  private readonly built = new Map<string, { kids: string; built: BuiltProvider }>();
  private readonly maxProviders: number;
  /** routes.ts sets the log. */
  onServerError: (error: unknown) => void = () => {};

  constructor(deps: OidcDependencies) {
    this.deps = deps;
    this.binding = interactionBinding(deps.config.publicUrl);
    this.maxProviders = Math.max(1, deps.maxProviders ?? MAX_CACHED_PROVIDERS);
  }

  async interaction(req: IncomingMessage, res: ServerResponse, uid: string): Promise<HostedInteraction> {
    // The service's OP answers every surface's interactions: they are shared storage, and the resume URL is the surface's.
    return loadInteraction((await this.get()).provider, this.binding, req, res, uid);
  }

  /** Through the OP of the surface it began on; undefined for a uid never issued or whose mark has expired. */
  async spentSignIn(uid: string, req: IncomingMessage, res: ServerResponse): Promise<SpentSignIn | undefined> {
    const spent = await findSpentInteraction(this.deps.orm, uid);
    const surface = spent === undefined ? null : await this.deps.surfaces.forIssuer(spent.issuer);
    if (spent === undefined || surface === null) return undefined;
    return spentSignIn((await this.get(surface)).provider, surface, spent.clientId, req, res);
  }

  /** `undefined`: the session's sign-in. */
  async completeInteraction(interaction: Interaction, signIn: SignIn | undefined): Promise<string> {
    const { provider } = await this.get();
    return finishInteraction(interaction, await interactionResult(provider, this.deps, interaction, signIn));
  }

  async sessionSignIn(interaction: Interaction): Promise<SessionSignIn> {
    return sessionSignIn((await this.get()).provider, interaction);
  }

  refuseInteraction(interaction: Interaction): Promise<string> {
    return refuseInteraction(interaction);
  }

  /** Taken by each form of the interaction before it proves or records anything, and by the consent page finishing it without one (interaction-claims.ts). */
  claimInteraction(uid: string): Promise<InteractionClaim> {
    return claimInteraction(this.deps.orm, uid);
  }

  async accountBrowser(surface: Surface, request: { clientId: string; tenant: string | undefined }, req: IncomingMessage, res: ServerResponse): Promise<AccountBrowser | undefined> {
    return accountBrowser((await this.get(surface)).provider, surface, request, req, res);
  }

  async get(surface: Surface = this.deps.surfaces.service): Promise<BuiltProvider> {
    const jwks = await this.deps.signingKeys.privateJwks();
    const kids = jwks.keys.map((key) => key.kid).join(',');
    const key = JSON.stringify(surface);
    let entry = this.built.get(key);
    if (entry !== undefined) this.built.delete(key);
    if (entry?.kids !== kids) {
      if (entry !== undefined) dispose(entry.built);
      entry = { kids, built: this.build(jwks, surface) };
    }
    // Map order is insertion order: re-inserting marks it the most recently used.
    this.built.set(key, entry);
    for (const [oldest, evicted] of this.built) {
      if (this.built.size <= this.maxProviders) break;
      this.built.delete(oldest);
      dispose(evicted.built);
    }
    return entry.built;
  }

  get cachedProviders(): number {
    return this.built.size;
  }

  private build(jwks: { keys: unknown[] }, surface: Surface): BuiltProvider {
    const signIn = () => {
      if (this.deps.signIn === undefined) throw new Error('this OP was built without the sign-in rules');
      return this.deps.signIn;
    };
    const pages = opPages(this.deps.orm, signIn, surface, this.deps.samlSignOut);
    const servers = resourceServersOf(this.deps.orm, managementApi(this.deps));
    const provider = new Provider(surface.issuer, answeringOverloadIn(configuration(this.deps, jwks, surface, servers, pages, signIn)));
    provider.registerResponseMode(ACCOUNT_RESPONSE_MODE, returnToAccountPage(surface.issuer));
    useAnsweringOverload(provider, [
      prefillUserCode,
      paceDevicePolling(this.deps.orm),
      endUntakenDeviceGrants(this.deps),
      allowOpFormTargets(this.deps.samlSignOut, surface),
      challengeClientAuthentication(surface.issuer),
      forbidCachingTokens,
      refuseUnauthorizedClient,
      advertiseIssuedClaimsOnly,
      introspectJwtAccessTokens(this.deps, surface),
      signOutDevicePages,
      ...(this.deps.samlSignOut === undefined ? [] : [signOutAtIdp(this.deps.samlSignOut, surface)]),
      // Inside the SAML sign-out's: the address it returns to after the IdP keeps the language too.
      keepLogoutLanguage,
    ]);
    const management = this.deps.signingKeys.managementAudience;
    applyOverrides(
      provider,
      answeringOverloadIn({
        findAccount: findAccountOnce((ctx, sub, token) => findAccount(this.deps, surface, ctx, sub, token)),
        servers,
        tokenClaims: (ctx, token) => accessTokenClaims(this.deps, surface, ctx, token),
        isApiResource: (audience) => typeof audience === 'string' && audience !== management,
      }),
    );
    // routes.ts overwrites X-Forwarded-Proto/Host with the issuer's: URLs and cookie security follow it whatever proxy
    // is in front.
    provider.proxy = true;
    provider.on('server_error', (_ctx: unknown, error: unknown) => this.onServerError(error));
    provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
      countGrant(ctx, 'success');
      tokensIssued(this.deps, ctx);
    });
    provider.on('grant.error', (ctx: KoaContextWithOIDC, error: { error?: unknown; error_detail?: unknown }) => {
      countGrant(ctx, typeof error.error === 'string' ? error.error : 'server_error');
      // oidc-provider's detail (its description is always "grant request is invalid") when a rotated refresh token comes
      // back: its grant is revoked, and someone holds a copy.
      if (error.error_detail === 'refresh token already used') noteRequest({ refusal: 'refresh_token_reuse' });
    });
    // Each event's own overload is typed; a loop over them needs the emitter's plain signature.
    const events: EventEmitter = provider;
    for (const event of ANSWERED_ERRORS) {
      events.on(event, (_ctx: unknown, error: { error?: unknown; error_description?: unknown }) => {
        if (typeof error.error !== 'string') return;
        noteRequest({ answeredError: { code: error.error, ...(typeof error.error_description === 'string' ? { message: error.error_description } : {}) } });
      });
    }
    const callback = provider.callback();
    return { provider, handle: (req, res) => callback(req, res) };
  }
}

function tokensIssued(deps: OidcDependencies, ctx: KoaContextWithOIDC): void {
  const { client, entities, params } = ctx.oidc;
  const data = client === undefined ? undefined : gatehouseData(client);
  if (client === undefined || data === undefined) return;
  const accountId = entities.Account?.accountId ?? entities.AccessToken?.accountId;
  deps.tokenEvents.record({
    applicationId: data.applicationId,
    tenantId: data.tenantId ?? issuedTenantOf(ctx) ?? null,
    clientId: client.clientId,
    grantType: String(params?.['grant_type']),
    userId: accountId !== undefined && isUuid(accountId) ? accountId : null,
    grantId: entities.Grant?.jti ?? entities.AccessToken?.grantId ?? null,
    requestId: opRequestId(ctx),
  });
}

/** oidc-provider's events for an error it answers (its error_handler and authorization_error_handler), one per endpoint;
 *  not `backchannel.error`, a logout notice that failed, which is not the answer. `server_error` is logged apart. */
const ANSWERED_ERRORS = [
  'authorization.error',
  'grant.error',
  'userinfo.error',
  'introspection.error',
  'revocation.error',
  'jwks.error',
  'discovery.error',
  'end_session.error',
  'end_session_confirm.error',
  'end_session_success.error',
  'device_authorization.error',
  'code_verification.error',
  'device_resume.error',
  'pushed_authorization_request.error',
  'backchannel_authentication.error',
  'registration_create.error',
  'registration_read.error',
  'registration_update.error',
  'registration_delete.error',
] as const;

/** Any other value counts as `other`, so the label set stays closed. */
const GRANT_TYPES: ReadonlySet<string> = new Set([
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'urn:ietf:params:oauth:grant-type:device_code',
]);

/** `outcome`: `success` or an OAuth error code (the OP's closed set). */
function countGrant(ctx: KoaContextWithOIDC, outcome: string): void {
  const type = ctx.oidc?.params?.['grant_type'];
  tokenGrants.inc({ grant_type: typeof type === 'string' && GRANT_TYPES.has(type) ? type : 'other', outcome });
}

/** Requests already running on it finish; it only stops listening for our events. */
function dispose(built: BuiltProvider): void {
  built.provider.removeAllListeners();
}
