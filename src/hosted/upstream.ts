import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';
import { UPSTREAM_CALLBACK_PATH, upstreamCallbackUrl } from '../domain/sign-in/upstream/callback-url.ts';
import { finishUpstream, offeredUpstream, startUpstream, type UpstreamRequest } from '../domain/sign-in/upstream/flow.ts';
import type { UpstreamMethod } from '../domain/sign-in/surface-settings.ts';
import { reauthenticationOf } from '../domain/sign-in/reauthentication.ts';
import type { CopyKey } from '../pages/pages.ts';
import { guessingAddress } from '../http/request-origin.ts';
import { isUuid } from '../ids.ts';
import { interactionPaths } from '../domain/sign-in/interaction-paths.ts';
import type { Services } from '../services.ts';
import type { CsrfTokens } from './csrf.ts';
import { hostedCookie } from './cookies.ts';
import type { InteractionContext, LoginExtra, ProvenFactor } from './routes.ts';

/**
 * Social and OIDC sign-in (src/domain/sign-in/upstream/): the upstream answers the provider's fixed callback URL, which
 * sends the browser on to the interaction `state` names, where the OP's cookie and ours (the request's secrets) are.
 */

interface Params {
  uid: string;
  providerId: string;
}

export interface HostedSteps {
  readonly services: Services;
  readonly csrf: CsrfTokens;
  readonly secureCookies: boolean;
  load(request: FastifyRequest, reply: FastifyReply): Promise<InteractionContext>;
  signsIn(context: InteractionContext): Promise<boolean>;
  showLogin(reply: FastifyReply, context: InteractionContext, status: number, extra?: LoginExtra): unknown;
  continueSignIn(request: FastifyRequest, reply: FastifyReply, context: InteractionContext, proven: ProvenFactor): Promise<unknown>;
}

/** As long as a proven password stays good. */
const UPSTREAM_REQUEST_SECONDS = 600;
/** Neither an interaction uid nor a random state holds a dot. */
const STATE_SEPARATOR = '.';
/** oidc-provider's nanoid: anything else in a `state` names none. */
const UID = /^[\w-]{1,128}$/;

const REFUSAL_COPY: Readonly<Record<string, CopyKey>> = {
  upstream_no_email: 'upstream.noEmail',
  upstream_email_unverified: 'upstream.unverified',
  email_unverified: 'login.unverified',
  signup_unavailable: 'upstream.noAccount',
  provider_not_trusted: 'upstream.otherWay',
};

function parsedRequest(json: string | undefined): UpstreamRequest | undefined {
  if (json === undefined) return undefined;
  try {
    return JSON.parse(json) as UpstreamRequest;
  } catch {
    return undefined;
  }
}

/** Apple's form_post sends a form. */
function answerOf(request: FastifyRequest): URLSearchParams {
  const query = new URL(request.url, 'http://callback').searchParams;
  if (request.method !== 'POST') return query;
  const form = (request.body ?? {}) as Record<string, string | null>;
  return new URLSearchParams(Object.entries(form).flatMap(([name, value]) => (value === null ? [] : [[name, value]])));
}

export function upstreamRoutes(app: FastifyInstance, steps: HostedSteps): void {
  const { services, csrf, secureCookies } = steps;
  const cookie = hostedCookie(secureCookies, 'gh_upstream');

  /** On the surface the browser is on. */
  async function redirectUri(request: FastifyRequest, method: UpstreamMethod): Promise<string> {
    const surface = await services.surfaces.forHost(request.headers.host);
    if (surface.kind === 'domain') return upstreamCallbackUrl(surface.issuer, { id: method.providerId, tenantId: null });
    return upstreamCallbackUrl(services.config.publicUrl, { id: method.providerId, tenantId: method.tenantId });
  }

  /** Only when the interaction's surface offers it and the interaction signs a user in. */
  function offered(context: InteractionContext, providerId: string): UpstreamMethod {
    const method = offeredUpstream(context.target, providerId);
    if (method === undefined) throw new SignInRefusal('upstream_unavailable', context.target.look);
    return method;
  }

  const backToPage = (reply: FastifyReply, uid: string) => reply.status(303).header('location', interactionPaths(uid).page).send();

  app.get<{ Params: Params }>('/interaction/:uid/oauth/:providerId', async (request, reply) => {
    const context = await steps.load(request, reply);
    const { uid } = context.interaction;
    if (!(await steps.signsIn(context))) return backToPage(reply, uid);
    const method = offered(context, request.params.providerId);
    let started: Awaited<ReturnType<typeof startUpstream>>;
    try {
      const reauthentication = reauthenticationOf(context.interaction.prompt, context.interaction.params['max_age']);
      started = await startUpstream(context.target, method, await redirectUri(request, method), `${uid}${STATE_SEPARATOR}`, reauthentication);
    } catch (error) {
      request.log.warn({ err: error, provider: method.providerId }, 'upstream identity provider unreachable');
      throw new SignInRefusal('upstream_unreachable', context.target.look);
    }
    const sealed = csrf.seal(uid, JSON.stringify(started.request), UPSTREAM_REQUEST_SECONDS);
    return reply.status(303).header('set-cookie', cookie.set(interactionPaths(uid).page, sealed, UPSTREAM_REQUEST_SECONDS)).header('location', started.url.href).send();
  });

  const relay = async (request: FastifyRequest<{ Params: { providerId: string } }>, reply: FastifyReply) => {
    const answer = answerOf(request);
    const uid = answer.get('state')?.split(STATE_SEPARATOR)[0] ?? '';
    if (!UID.test(uid) || !isUuid(request.params.providerId)) throw new SignInRefusal('upstream_request_expired');
    return reply.status(303).header('location', `${interactionPaths(uid).upstreamCallback(request.params.providerId)}?${answer.toString()}`).send();
  };
  for (const prefix of ['', '/t/:tenantRef']) {
    app.get<{ Params: { providerId: string } }>(`${prefix}${UPSTREAM_CALLBACK_PATH}/:providerId`, relay);
    app.post<{ Params: { providerId: string } }>(`${prefix}${UPSTREAM_CALLBACK_PATH}/:providerId`, relay);
  }

  app.get<{ Params: Params }>('/interaction/:uid/oauth/:providerId/callback', async (request, reply) => {
    const context = await steps.load(request, reply);
    const { uid } = context.interaction;
    const upstreamRequest = parsedRequest(csrf.unseal(uid, cookie.read(request)));
    // The request's secrets serve once, whatever the outcome.
    reply.header('set-cookie', cookie.clear(interactionPaths(uid).page));
    if (!(await steps.signsIn(context))) return backToPage(reply, uid);
    if (upstreamRequest?.providerId !== request.params.providerId) throw new SignInRefusal('upstream_request_expired', context.target.look);
    const method = offered(context, request.params.providerId);
    const log = (error: unknown) => request.log.info({ err: error, provider: method.providerId }, 'upstream sign-in refused');
    const account = await finishUpstream(context.target, method, upstreamRequest, answerOf(request), guessingAddress(request), log);
    if (!account.ok) {
      const error = account.scopesLacking === true ? 'upstream.emailNotAsked' : (REFUSAL_COPY[account.reason] ?? 'upstream.failed');
      return steps.showLogin(reply, context, account.reason === 'upstream_error' ? 400 : 403, { error });
    }
    return steps.continueSignIn(request, reply, context, { user: account.user, verified: account.verified, amr: [], methods: ['oauth'], record: account.record });
  });
}
