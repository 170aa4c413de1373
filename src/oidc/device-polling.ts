import type { MikroORM } from '@mikro-orm/postgresql';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { recordDeviceCodePoll } from './adapter.ts';
import { OIDC_PATHS } from './configuration.ts';

/** RFC 8628 3.2: stated so no client has to assume the RFC's default. */
const POLL_INTERVAL_SECONDS = 5;
const SLOW_DOWN_SECONDS = 5;

const isRecord = (body: unknown): body is Record<string, unknown> => typeof body === 'object' && body !== null && !Array.isArray(body);

/** RFC 8628 3.5 `slow_down`, which oidc-provider never answers; a decided code gets its answer at once. */
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
