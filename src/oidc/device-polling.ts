import type { MikroORM } from '@mikro-orm/postgresql';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { recordDeviceCodePoll } from './adapter.ts';
import { OIDC_PATHS } from './configuration.ts';

/** RFC 8628 3.2: the seconds a device waits between polls of the token endpoint (the RFC's default, stated so no client has to assume it). */
const POLL_INTERVAL_SECONDS = 5;
/** RFC 8628 3.5: what each `slow_down` adds to the interval of that device code. */
const SLOW_DOWN_SECONDS = 5;

const isRecord = (body: unknown): body is Record<string, unknown> => typeof body === 'object' && body !== null && !Array.isArray(body);

/**
 * The device flow's polling pace, which oidc-provider leaves out (it defines `slow_down` but never answers it): the
 * device authorization response carries `interval`, and a device code polled again while still pending, sooner than
 * its interval after its previous poll, is answered `slow_down` instead of `authorization_pending`, its interval then
 * 5 s longer. Only pending codes are paced: an approved or refused one gets its answer at once. Koa middleware for
 * `provider.use`, reading the OP's answers on their way out.
 */
export function paceDevicePolling(orm: MikroORM) {
  return async function devicePolling(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
    await next();
    if (ctx.method !== 'POST' || !isRecord(ctx.body)) return;
    if (ctx.path === OIDC_PATHS.device_authorization && ctx.status === 200) {
      ctx.body = { ...ctx.body, interval: POLL_INTERVAL_SECONDS };
      return;
    }
    if (ctx.path !== OIDC_PATHS.token || ctx.body['error'] !== 'authorization_pending') return;
    const deviceCode = ctx.oidc.params?.['device_code'];
    if (typeof deviceCode !== 'string') return;
    if ((await recordDeviceCodePoll(orm, deviceCode, POLL_INTERVAL_SECONDS, SLOW_DOWN_SECONDS)) === 'too_soon') {
      const slowDown = new errors.SlowDown();
      ctx.body = { error: slowDown.error, error_description: slowDown.error_description };
    }
  };
}
