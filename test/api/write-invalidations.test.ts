import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../src/auth/authenticate.ts';
import { createRequestContext, scopeInTransaction, type Scope } from '../../src/context.ts';
import { Application } from '../../src/db/entities/index.ts';
import { changed } from '../../src/events/changes.ts';
import type { Invalidation } from '../../src/events/invalidations.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/**
 * A write announces in its transaction what caches must forget (src/events/changes.ts); Scope.transactional publishes it
 * once the transaction commits, once per record, and never for a write that rolled back.
 */
let app: TestApp;
const published: Invalidation[] = [];
const USERS = (id: string): Invalidation => ({ kind: 'users', id });

beforeAll(async () => {
  app = await startTestApp();
  // What is published, not what is heard: with Redis an instance hears its own invalidations twice.
  const bus = app.gatehouse.services.invalidations;
  const publish = bus.publish.bind(bus);
  bus.publish = (invalidation) => {
    published.push(invalidation);
    return publish(invalidation);
  };
});
afterAll(async () => app?.close());

async function rootScope(): Promise<Scope> {
  const { services } = app.gatehouse;
  const principal = await authenticate({ orm: services.orm, cache: services.apiKeys }, services.signingKeys, { apiKey: app.root.apiKey, bearer: undefined });
  return createRequestContext(services, randomUUID(), principal).scope();
}

/** What was published of `id` alone: other writes of the service may come in between. */
const publishedOf = (id: string) => published.filter((invalidation) => invalidation.kind !== 'all' && invalidation.id === id);

describe('changes announced in a write', () => {
  it('are published once it commits, not before, and each record once', async () => {
    const scope = await rootScope();
    const id = randomUUID();
    const duringWork = await scope.transactional(async (em) => {
      changed(em, USERS(id));
      changed(em, USERS(id), { kind: 'roles', id });
      await em.getConnection().execute('select 1', [], 'all', em.getTransactionContext());
      return publishedOf(id).length;
    });
    expect(duringWork).toBe(0);
    expect(publishedOf(id)).toEqual([USERS(id), { kind: 'roles', id }]);
  });

  it('are dropped with a write that rolls back', async () => {
    const scope = await rootScope();
    const id = randomUUID();
    const failed = scope.transactional(async (em) => {
      changed(em, USERS(id));
      throw new Error('refused');
    });
    await expect(failed).rejects.toThrow('refused');
    expect(publishedOf(id)).toEqual([]);
  });

  it('of an inner transaction wait for the outer one to commit', async () => {
    const scope = await rootScope();
    const id = randomUUID();
    const afterInner = await scope.transactional(async (em) => {
      const application = await em.findOneOrFail(Application, { id: scope.applicationId });
      await scopeInTransaction(scope, em, application).transactional(async (inner) => changed(inner, USERS(id)));
      return publishedOf(id).length;
    });
    expect(afterInner).toBe(0);
    expect(publishedOf(id)).toEqual([USERS(id)]);
  });

  it('outside a transaction begun by Scope.transactional are refused: nothing would publish them', async () => {
    const scope = await rootScope();
    expect(() => changed(scope.em, USERS(randomUUID()))).toThrow(/Scope.transactional/);
    const em = app.gatehouse.services.orm.em.fork();
    await em.transactional(async (own) => {
      expect(() => changed(own, USERS(randomUUID()))).toThrow(/Scope.transactional/);
    });
  });
});
