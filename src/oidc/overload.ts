import { errors, type Adapter, type KoaContextWithOIDC, type Provider } from 'oidc-provider';
import opErrorHandler from 'oidc-provider/lib/shared/error_handler.js';
import { gatehouseErrorOf } from '../gatehouse-error-of.ts';
import { defaultRetrySeconds } from '../http/retry-after.ts';

type OpMiddleware = (ctx: KoaContextWithOIDC, next: () => Promise<unknown>) => Promise<void>;

type TemporarilyUnavailable = InstanceType<typeof errors.TemporarilyUnavailable>;

/** `temporarily_unavailable` (RFC 6749 4.1.2.1), a 503 the OP exposes: its errors are 400 unless told, and hide what is 500 or more. */
export const temporarilyUnavailable = (description: string, cause: unknown): TemporarilyUnavailable =>
  Object.assign(new errors.TemporarilyUnavailable(description, { cause }), { status: 503, statusCode: 503, expose: true });

/** No database connection came free in time, or a lock is taken that the request may not wait for. */
export function overloadRefusal(error: unknown): TemporarilyUnavailable | undefined {
  if (error instanceof errors.TemporarilyUnavailable) return error;
  const refusal = gatehouseErrorOf(error);
  if (refusal?.code !== 'service_unavailable') return undefined;
  return temporarilyUnavailable(refusal.message, error);
}

const refuse = (error: unknown): never => {
  throw overloadRefusal(error) ?? error;
};

/** Thrown or rejected alike. An arrow: oidc-provider would construct a callback that has a prototype (its adapter factory). */
export function refusingOverload<A extends unknown[], R>(callback: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    let result: R;
    try {
      result = callback(...args);
    } catch (error) {
      return refuse(error);
    }
    return result instanceof Promise ? (result.catch(refuse) as R) : result;
  };
}

/**
 * The OP's steps past its storage reach the database too, and their overload would otherwise be `server_error`. Arrays
 * and class instances (prompts) are kept.
 */
export function answeringOverloadIn<O extends object>(options: O): O {
  return Object.fromEntries(Object.entries(options).map(([key, value]) => [key, answeringOverloadOf(value)])) as O;
}

const answeringOverloadOf = (value: unknown): unknown => {
  if (typeof value === 'function') return refusingOverload(value as (...args: unknown[]) => unknown);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return answeringOverloadIn(value);
  return value;
};

export function answeringOverload(adapter: Adapter): Adapter {
  return {
    upsert: (id, payload, expiresIn) => adapter.upsert(id, payload, expiresIn).catch(refuse),
    find: (id) => adapter.find(id).catch(refuse),
    findByUserCode: (userCode) => adapter.findByUserCode(userCode).catch(refuse),
    findByUid: (uid) => adapter.findByUid(uid).catch(refuse),
    consume: (id) => adapter.consume(id).catch(refuse),
    destroy: (id) => adapter.destroy(id).catch(refuse),
    revokeByGrantId: (grantId) => adapter.revokeByGrantId(grantId).catch(refuse),
  };
}

/** As the service's other answers do. */
const sayWhenToRetryOverloaded: OpMiddleware = async (ctx, next) => {
  await next();
  const seconds = defaultRetrySeconds(ctx.status);
  if (ctx.status === 503 && seconds !== undefined) ctx.set('retry-after', String(seconds));
};

/** JSON, its error page, or the user-code page (not the authorization endpoint's). */
const answerAsTheOpsEndpoints = opErrorHandler();

/** A page reading the database: the middleware around it does not try again. */
const failedAnswers = new WeakSet<object>();

function answeringOverloadAround(middleware: OpMiddleware): OpMiddleware {
  return async (ctx, next) => {
    try {
      await middleware(ctx, next);
    } catch (error) {
      const refusal = overloadRefusal(error);
      // The OP's error handler needs its router's context (absent before it, or off its routes).
      if (refusal === undefined || failedAnswers.has(refusal) || (ctx.oidc as KoaContextWithOIDC['oidc'] | undefined) === undefined) throw refusal ?? error;
      // The answer is the refusal, not where the OP was sending the browser (a logout's redirect).
      ctx.remove('location');
      await answerAsTheOpsEndpoints(ctx, () => Promise.reject(refusal)).catch((failure: unknown) => {
        const thrown = overloadRefusal(failure) ?? failure;
        if (typeof thrown === 'object' && thrown !== null) failedAnswers.add(thrown);
        throw thrown;
      });
    }
  };
}

/** Middleware runs outside the OP's error handling, so each answers an overload as the endpoints do. */
export function useAnsweringOverload(provider: Provider, middleware: readonly OpMiddleware[]): void {
  provider.use(sayWhenToRetryOverloaded);
  for (const each of middleware) provider.use(answeringOverloadAround(each));
}
