import type { MikroORM } from '@mikro-orm/postgresql';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { MODEL, POLLING_KEY } from '../db/oidc-model.ts';
import { OIDC_PATHS } from './configuration.ts';

/** RFC 8628 3.2: stated so no client has to assume the RFC's default. */
const POLL_INTERVAL_SECONDS = 5;
const SLOW_DOWN_SECONDS = 5;

/** RFC 8628 3.5 slow_down, on the code's row so every instance paces alike; the row lock orders concurrent polls. */
async function recordDeviceCodePoll(orm: MikroORM, id: string, interval: number, slowDownBy: number): Promise<'in_time' | 'too_soon'> {
  const [row] = await orm.em.getConnection().execute<{ too_soon: boolean }[]>(
    `with previous as (
       select id, coalesce((payload #>> '{${POLLING_KEY},interval}')::int, ?) as interval,
              (payload #>> '{${POLLING_KEY},at}')::float8 as at
         from oidc_model where model = '${MODEL.DeviceCode}' and id = ? for update
     ), paced as (
       select id, interval, coalesce(at > extract(epoch from clock_timestamp()) - interval, false) as too_soon from previous
     )
     update oidc_model set payload = payload || jsonb_build_object('${POLLING_KEY}', jsonb_build_object(
         'at', extract(epoch from clock_timestamp()),
         'interval', paced.interval + case when paced.too_soon then ? else 0 end))
       from paced where oidc_model.model = '${MODEL.DeviceCode}' and oidc_model.id = paced.id
     returning paced.too_soon`,
    [interval, id, slowDownBy],
  );
  return row?.too_soon === true ? 'too_soon' : 'in_time';
}

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
