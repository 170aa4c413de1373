import type { Surface } from '../domain/domains/surfaces.ts';
import type { SamlSignOut } from '../domain/sign-in/saml-logout.ts';
import { idpFormTargets } from './saml-sign-out.ts';
import type { Client, KoaContextWithOIDC } from 'oidc-provider';
import { grantTenant } from './grant-tenant.ts';
import { opRequestId } from './op-request-id.ts';
import { gatehouseData } from './clients.ts';
import { errorRenderer, writePage } from './error-page.ts';
import type { OpPages, SignInRules } from './configuration.ts';
import { prefilledUserCode } from './user-code-prefill.ts';
import type { MikroORM } from '@mikro-orm/postgresql';
import { cspSource, deviceCodePage, deviceConfirmPage, donePage, logoutPage, lookFor, PLAIN_LOOK, type DeviceCodePageInput, type PageLook } from '../pages/pages.ts';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';

/**
 * The pages oidc-provider renders itself (device verification, RP-initiated logout), in the hosted look: the OP runs
 * the protocol, these only render. Without a client the look is plain, but on a custom domain, which names its own.
 */

/** The token is bound to the browser's OP session; the hosted form posts it back as is. */
function xsrfOf(form: string): string {
  const token = /name="xsrf" value="([^"]*)"/.exec(form)?.[1];
  if (token === undefined) throw new Error('the OP form has no xsrf token');
  return token;
}

/** The OP's codes are 8 characters plus separators. */
const MAX_USER_CODE = 64;

interface LookSource {
  readonly client: Client | undefined;
  readonly tenant: unknown;
  /** The device authorization's, if the page's own request has none. */
  readonly uiLocales?: unknown;
}

/** Resolved as the surface's sign-in is (admitSignIn): the tenant its path or domain fixes, else the one the source names.
 *  Else a custom domain's own application and tenant (a tenant's path alone names no application), else PLAIN_LOOK. */
async function surfaceLook(rules: SignInRules, surface: Surface, ctx: KoaContextWithOIDC, source: LookSource | undefined): Promise<PageLook> {
  const requestId = opRequestId(ctx);
  const client = source?.client;
  const data = gatehouseData(client);
  if (client !== undefined && data !== undefined) {
    try {
      const target = await rules.admit(requestId, surface, { clientId: client.clientId, data }, typeof source?.tenant === 'string' ? [source.tenant] : []);
      if (target !== undefined) return target.look;
    } catch (error) {
      // E.g. a tenant deleted since, an isolated application's request naming none, another application's domain.
      if (!(error instanceof SignInRefusal)) throw error;
      if (error.look !== undefined) return error.look;
    }
  }
  if (surface.kind !== 'domain') return PLAIN_LOOK;
  return (await rules.look(requestId, surface.applicationId, surface.tenantId)) ?? PLAIN_LOOK;
}

/** Its `ui_locales` (a logout may carry one), else the device authorization's, else the browser's. */
function inRequestLanguage(ctx: KoaContextWithOIDC, look: PageLook, source: LookSource | undefined): PageLook {
  const own = ctx.oidc.params?.['ui_locales'];
  return lookFor(look, ctx.headers['accept-language'], own ?? source?.uiLocales);
}

const lookOf = async (rules: SignInRules, surface: Surface, ctx: KoaContextWithOIDC, source: LookSource | undefined) =>
  inRequestLanguage(ctx, await surfaceLook(rules, surface, ctx, source), source);

async function signInTenant(orm: MikroORM, grantId: string | undefined): Promise<string | undefined> {
  return grantId === undefined ? undefined : ((await grantTenant(orm, grantId)) ?? undefined);
}

/** Expired and used ones included. */
async function deviceCodeSource(ctx: KoaContextWithOIDC, userCode: string | undefined): Promise<LookSource | undefined> {
  if (userCode === undefined || userCode === '' || userCode.length > MAX_USER_CODE) return undefined;
  // oidc-provider's normalization of a typed code (lib/helpers/user_codes.js).
  const normalized = userCode.toUpperCase().replace(/\W/g, '');
  const code = await ctx.oidc.provider.DeviceCode.findByUserCode(normalized, { ignoreExpiration: true });
  if (code?.clientId === undefined) return undefined;
  return { client: await ctx.oidc.provider.Client.find(code.clientId), tenant: code.params?.['tenant'], uiLocales: code.params?.['ui_locales'] };
}

/** A wrong code is answered in the same look. Only a look: branding is public on the sign-in pages anyway. */
async function postedFromSource(ctx: KoaContextWithOIDC): Promise<LookSource | undefined> {
  const { client_id: clientId, tenant } = ctx.oidc.body ?? {};
  return typeof clientId === 'string' ? { client: await ctx.oidc.provider.Client.find(clientId), tenant } : undefined;
}

/** A device cancelled there is answered in its client's look, though the code is not shown again. */
function confirmedUserCode(ctx: KoaContextWithOIDC): string | undefined {
  const userCode = ctx.oidc.body?.['user_code'];
  return typeof userCode === 'string' ? userCode : undefined;
}

/** The interaction the OP resumes names its client and the tenant the pages showed. */
async function resumedInteractionSource(ctx: KoaContextWithOIDC): Promise<LookSource | undefined> {
  const params = (ctx.oidc.entities.Interaction as { params?: Record<string, unknown> } | undefined)?.params;
  const clientId = params?.['client_id'];
  return typeof clientId === 'string' ? { client: await ctx.oidc.provider.Client.find(clientId), tenant: params?.['tenant'] } : undefined;
}

/** At a sign-in's end (`device_resume`) the user typed nothing: a code not found was swept once expired. */
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
      // With a cause: the pages refused the resumed sign-in, not the user's cancel.
      return err.cause === undefined ? { error: 'device.aborted' } : { error: 'device.refused', status: 403 };
    default:
      // E.g. a stale xsrf token: the OP's status stands; the fresh form works.
      return { error: 'device.failed' };
  }
}

const userCodeOf = (err: Error | undefined): string | undefined =>
  err !== undefined && 'userCode' in err && typeof err.userCode === 'string' ? err.userCode : undefined;

export function opPages(orm: MikroORM, rules: () => SignInRules, surface: Surface, samlSignOut?: SamlSignOut): OpPages {
  return {
    renderError: errorRenderer((ctx) => surfaceLook(rules(), surface, ctx, undefined)),

    async userCodeInputSource(ctx, form, _out, err) {
      const { error, status } = inputError(ctx, err);
      const userCode = userCodeOf(err) ?? prefilledUserCode(ctx);
      const source =
        (await deviceCodeSource(ctx, userCode ?? confirmedUserCode(ctx))) ?? (await postedFromSource(ctx)) ?? (await resumedInteractionSource(ctx));
      const found = await surfaceLook(rules(), surface, ctx, source);
      const look = inRequestLanguage(ctx, found, source);
      const clientId = found === PLAIN_LOOK ? undefined : source?.client?.clientId;
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
      const look = await lookOf(rules(), surface, ctx, { client, tenant: params?.['tenant'], uiLocales: params?.['ui_locales'] });
      const input = { action: ctx.oidc.urlFor('code_verification'), xsrf: xsrfOf(form), userCode };
      writePage(ctx, (nonce) => deviceConfirmPage(look, nonce, input), ["'self'"]);
    },

    async successSource(ctx) {
      const code = ctx.oidc.deviceCode;
      const tenant = (await signInTenant(orm, code?.grantId)) ?? code?.params?.['tenant'];
      const look = await lookOf(rules(), surface, ctx, { client: ctx.oidc.client, tenant });
      writePage(ctx, (nonce) => donePage(look, nonce, 'device.doneTitle', 'device.doneText'));
    },

    async logoutSource(ctx, form) {
      const client = ctx.oidc.client;
      const grantId = client === undefined ? undefined : ctx.oidc.session?.grantIdFor(client.clientId);
      const look = await lookOf(rules(), surface, ctx, { client, tenant: await signInTenant(orm, grantId) });
      const asked = ctx.oidc.params?.['ui_locales'];
      const input = { action: ctx.oidc.urlFor('end_session_confirm'), xsrf: xsrfOf(form), ...(typeof asked === 'string' ? { uiLocales: look.locale } : {}) };
      // To the post-logout redirect URI (the OP has checked it), or first to the SAML IdP's single logout (saml-sign-out.ts).
      const redirect = cspSource(ctx.oidc.params?.['post_logout_redirect_uri']);
      const saml = await idpFormTargets(samlSignOut, ctx, surface);
      const formTargets = [...new Set(["'self'", ...(redirect === undefined ? [] : [redirect]), ...saml])];
      writePage(ctx, (nonce) => logoutPage(look, nonce, input), formTargets);
    },

    async postLogoutSuccessSource(ctx) {
      // The OP reads only `client_id` here: the logout's language comes in the query (middleware.ts keepLogoutLanguage).
      const look = await lookOf(rules(), surface, ctx, { client: ctx.oidc.client, tenant: undefined, uiLocales: ctx.query['ui_locales'] });
      writePage(ctx, (nonce) => donePage(look, nonce, 'logout.doneTitle', 'logout.doneText'));
    },
  };
}
