import type { Surface } from '../domain/domains/surfaces.ts';
import type { SamlSignOut } from '../domain/sign-in/saml-logout.ts';
import { loggingOut } from './saml-sign-out.ts';
import type { Client, KoaContextWithOIDC } from 'oidc-provider';
import { grantTenant, opRequestId } from './adapter.ts';
import { gatehouseData } from './clients.ts';
import { writePage } from './error-page.ts';
import type { OpPages, SignInTargets } from './configuration.ts';
import { prefilledUserCode } from './user-code-prefill.ts';
import type { MikroORM } from '@mikro-orm/postgresql';
import { cspSource, deviceCodePage, deviceConfirmPage, donePage, logoutPage, lookFor, PLAIN_LOOK, type DeviceCodePageInput, type PageLook } from '../pages/pages.ts';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';

/**
 * The pages oidc-provider renders itself (device verification, RP-initiated logout), in the hosted look. The OP runs
 * the protocol; these only render, in the branding of the client's application and of the tenant when known (the
 * session's sign-in tenant, or the one the device authorization named). Without a client the look is plain.
 */

/** The OP's form carries its xsrf token (bound to the browser's OP session); the hosted form posts it back as is. */
function xsrfOf(form: string): string {
  const token = /name="xsrf" value="([^"]*)"/.exec(form)?.[1];
  if (token === undefined) throw new Error('the OP form has no xsrf token');
  return token;
}

/** The longest user code worth looking up (the OP's codes are 8 characters plus separators). */
const MAX_USER_CODE = 64;

interface LookSource {
  readonly client: Client | undefined;
  /** A tenant id or slug, as the `tenant` parameter takes it. */
  readonly tenant: unknown;
  /** The `ui_locales` of the request that started it (a device authorization's), if the page's own has none. */
  readonly uiLocales?: unknown;
}

/** The look of the source's surface, in no particular language: PLAIN_LOOK when there is none. */
async function surfaceLook(targets: SignInTargets, ctx: KoaContextWithOIDC, source: LookSource | undefined): Promise<PageLook> {
  const client = source?.client;
  const data = gatehouseData(client);
  if (client === undefined || data === undefined) return PLAIN_LOOK;
  try {
    return (await targets(opRequestId(ctx), { clientId: client.clientId, data }, source?.tenant)).look;
  } catch (error) {
    // E.g. a tenant deleted since, or an isolated application's request naming none: no tenant's look to show.
    if (error instanceof SignInRefusal) return PLAIN_LOOK;
    throw error;
  }
}

/**
 * `look` in the language of the request: its `ui_locales` (a logout may carry one), else that of the request the source
 * started with (a device authorization's, for its code's pages), else the browser's.
 */
function inRequestLanguage(ctx: KoaContextWithOIDC, look: PageLook, source: LookSource | undefined): PageLook {
  const own = ctx.oidc.params?.['ui_locales'];
  return lookFor(look, ctx.headers['accept-language'], own ?? source?.uiLocales);
}

const lookOf = async (targets: SignInTargets, ctx: KoaContextWithOIDC, source: LookSource | undefined) => inRequestLanguage(ctx, await surfaceLook(targets, ctx, source), source);

/** The tenant a grant's sign-in was for (src/oidc/interactions.ts records it), if any. */
async function signInTenant(orm: MikroORM, grantId: string | undefined): Promise<string | undefined> {
  return grantId === undefined ? undefined : ((await grantTenant(orm, grantId)) ?? undefined);
}

/** The device authorization a user code names, expired and used ones included: its client and requested tenant. */
async function deviceCodeSource(ctx: KoaContextWithOIDC, userCode: string | undefined): Promise<LookSource | undefined> {
  if (userCode === undefined || userCode === '' || userCode.length > MAX_USER_CODE) return undefined;
  // oidc-provider's normalization of a typed code (lib/helpers/user_codes.js): upper case, word characters only.
  const normalized = userCode.toUpperCase().replace(/\W/g, '');
  const code = await ctx.oidc.provider.DeviceCode.findByUserCode(normalized, { ignoreExpiration: true });
  if (code?.clientId === undefined) return undefined;
  return { client: await ctx.oidc.provider.Client.find(code.clientId), tenant: code.params?.['tenant'], uiLocales: code.params?.['ui_locales'] };
}

/**
 * The client and tenant whose look the posted input page had (hidden fields): a wrong code is answered in the same
 * look. Only a look: branding is public on the sign-in pages anyway.
 */
async function postedFromSource(ctx: KoaContextWithOIDC): Promise<LookSource | undefined> {
  const { client_id: clientId, tenant } = ctx.oidc.body ?? {};
  return typeof clientId === 'string' ? { client: await ctx.oidc.provider.Client.find(clientId), tenant } : undefined;
}

/**
 * The code the confirmation page posted (a hidden field): a device cancelled there is answered in its client's look,
 * not the plain one, though the cancelled code is not shown again.
 */
function confirmedUserCode(ctx: KoaContextWithOIDC): string | undefined {
  const userCode = ctx.oidc.body?.['user_code'];
  return typeof userCode === 'string' ? userCode : undefined;
}

/**
 * The device sign-in the hosted pages have just refused (src/hosted/routes.ts): the interaction the OP resumes names
 * its client and the tenant the pages showed.
 */
async function resumedInteractionSource(ctx: KoaContextWithOIDC): Promise<LookSource | undefined> {
  const params = (ctx.oidc.entities.Interaction as { params?: Record<string, unknown> } | undefined)?.params;
  const clientId = params?.['client_id'];
  return typeof clientId === 'string' ? { client: await ctx.oidc.provider.Client.find(clientId), tenant: params?.['tenant'] } : undefined;
}

/**
 * What the input page says after a failed attempt (the OP's re-render errors, by name), and its status. At a sign-in's
 * end (`device_resume`) the user typed nothing: a code not found was swept once expired.
 */
function inputError(ctx: KoaContextWithOIDC, err: Error | undefined): { error?: DeviceCodePageInput['error']; status?: number } {
  switch (err?.name) {
    case undefined:
      return {};
    case 'NoCodeError':
      return { error: 'device.error', status: 400 };
    case 'NotFoundError':
      return { error: ctx.oidc.route === 'device_resume' ? 'device.expired' : 'device.error', status: 400 };
    case 'ExpiredError':
    case 'AlreadyUsedError':
      return { error: 'device.expired', status: 400 };
    case 'AbortedError':
      // With a cause: the resumed sign-in ended in an error (the pages refused it), not the user's cancel.
      return err.cause === undefined ? { error: 'device.aborted' } : { error: 'device.refused', status: 403 };
    default:
      // E.g. a stale xsrf token: the OP's status stands; the fresh form works.
      return { error: 'device.failed' };
  }
}

const userCodeOf = (err: Error | undefined): string | undefined =>
  err !== undefined && 'userCode' in err && typeof err.userCode === 'string' ? err.userCode : undefined;

export function opPages(orm: MikroORM, targets: () => SignInTargets, surface: Surface, samlSignOut?: SamlSignOut): OpPages {
  return {
    async userCodeInputSource(ctx, form, _out, err) {
      const { error, status } = inputError(ctx, err);
      const userCode = userCodeOf(err) ?? prefilledUserCode(ctx);
      const source =
        (await deviceCodeSource(ctx, userCode ?? confirmedUserCode(ctx))) ?? (await postedFromSource(ctx)) ?? (await resumedInteractionSource(ctx));
      const surface = await surfaceLook(targets(), ctx, source);
      const look = inRequestLanguage(ctx, surface, source);
      const clientId = surface === PLAIN_LOOK ? undefined : source?.client?.clientId;
      const tenant = typeof source?.tenant === 'string' ? source.tenant : undefined;
      const input: DeviceCodePageInput = {
        action: ctx.oidc.urlFor('code_verification'),
        xsrf: xsrfOf(form),
        ...(userCode === undefined ? {} : { userCode }),
        ...(clientId === undefined ? {} : { lookOf: { clientId, tenant } }),
        ...(error === undefined ? {} : { error }),
      };
      writePage(ctx, (nonce) => deviceCodePage(look, nonce, input), ["'self'"], status);
    },

    async userCodeConfirmSource(ctx, form, client, _deviceInfo, userCode) {
      const params = ctx.oidc.entities.DeviceCode?.params;
      const look = await lookOf(targets(), ctx, { client, tenant: params?.['tenant'], uiLocales: params?.['ui_locales'] });
      const input = { action: ctx.oidc.urlFor('code_verification'), xsrf: xsrfOf(form), userCode };
      writePage(ctx, (nonce) => deviceConfirmPage(look, nonce, input), ["'self'"]);
    },

    async successSource(ctx) {
      const code = ctx.oidc.deviceCode;
      const tenant = (await signInTenant(orm, code?.grantId)) ?? code?.params?.['tenant'];
      const look = await lookOf(targets(), ctx, { client: ctx.oidc.client, tenant });
      writePage(ctx, (nonce) => donePage(look, nonce, 'device.doneTitle', 'device.doneText'));
    },

    async logoutSource(ctx, form) {
      const client = ctx.oidc.client;
      const grantId = client === undefined ? undefined : ctx.oidc.session?.grantIdFor(client.clientId);
      const look = await lookOf(targets(), ctx, { client, tenant: await signInTenant(orm, grantId) });
      const input = { action: ctx.oidc.urlFor('end_session_confirm'), xsrf: xsrfOf(form) };
      // The confirmation's 303 leads to the post-logout redirect URI (the OP has checked it is registered), or first to
      // the SAML IdP that signed the user in, for its single logout (saml-sign-out.ts).
      const redirect = cspSource(ctx.oidc.params?.['post_logout_redirect_uri']);
      const user = loggingOut(ctx, surface);
      const saml = user === undefined || samlSignOut === undefined ? [] : await samlSignOut.formTargets(user.applicationId, user.userId);
      const formTargets = [...new Set(["'self'", ...[redirect, ...saml.map(cspSource)].filter((target) => target !== undefined)])];
      writePage(ctx, (nonce) => logoutPage(look, nonce, input), formTargets);
    },

    async postLogoutSuccessSource(ctx) {
      const look = await lookOf(targets(), ctx, { client: ctx.oidc.client, tenant: undefined });
      writePage(ctx, (nonce) => donePage(look, nonce, 'logout.doneTitle', 'logout.doneText'));
    },
  };
}
