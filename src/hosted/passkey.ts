import type { FastifyInstance, FastifyRequest } from 'fastify';
import { interactionPaths } from '../domain/sign-in/interaction-paths.ts';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';
import { relyingPartyOf, type RelyingParty } from '../domain/webauthn/relying-party.ts';
import { passkeySignInOptions, verifyPasskeySignIn } from '../domain/webauthn/sign-in.ts';
import { text } from '../pages/pages.ts';
import { guessingAddress } from '../http/request-origin.ts';
import { webauthnForm } from '../pages/webauthn.ts';
import type { Services } from '../services.ts';
import type { EmailSignInSteps } from './magic-link.ts';
import type { InteractionContext } from './routes.ts';

/**
 * Any discoverable credential of the surface's relying party; a refusal shows the login page again, the same for every
 * reason.
 */
interface Params {
  uid: string;
}


/** The service's, or a verified custom domain's. */
export const relyingPartyFor = async (services: Services, request: FastifyRequest): Promise<RelyingParty> =>
  relyingPartyOf(await services.surfaces.forHost(request.headers.host));

/** A fresh challenge each time it is shown. */
export async function passkeyButton(services: Services, request: FastifyRequest, context: InteractionContext, csrf: string): Promise<string> {
  const { passkey, look } = context.target;
  if (passkey === null) return '';
  const options = await passkeySignInOptions(context.target, await relyingPartyFor(services, request), context.interaction.uid, passkey);
  return webauthnForm({ action: interactionPaths(context.interaction.uid).passkey, csrf, ceremony: 'get', options, label: text(look, 'login.passkey'), buttonClass: 'secondary' });
}

export function passkeyRoutes(app: FastifyInstance, services: Services, steps: EmailSignInSteps): void {
  app.post<{ Params: Params }>('/interaction/:uid/passkey', steps.throttled, async (request, reply) => {
    const context = await steps.load(request, reply);
    const fields = steps.formOf(request);
    await steps.requireOpenForm(request, context, fields);
    if (!(await steps.signsIn(context))) return reply.status(303).header('location', interactionPaths(context.interaction.uid).page).send();
    const method = context.target.passkey;
    if (method === null) throw new SignInRefusal('passkey_unavailable', context.target.look);
    const rp = await relyingPartyFor(services, request);
    const check = await verifyPasskeySignIn(context.target, rp, context.interaction.uid, method, fields['credential'], guessingAddress(request));
    if (!check.ok) return steps.showLogin(reply, context, 400, { error: 'login.passkeyError' });
    return steps.continueSignIn(request, reply, context, { user: check.user, verified: check.verified, amr: check.amr, methods: ['passkey'], record: check.record });
  });
}
