import { describe, expect, it } from 'vitest';
import { SessionValidationCache, type KnownValidToken } from '../../src/domain/sessions/validation-cache.ts';
import { createInvalidationBus } from '../../src/events/invalidations.ts';

const known = (overrides: Partial<KnownValidToken> = {}): KnownValidToken => ({
  applicationId: 'app-1',
  userId: 'user-1',
  clientId: 'client-1',
  grantId: 'grant-1',
  tenantId: 'tenant-1',
  issuer: 'https://auth.example.com',
  session: {
    id: 'session-1',
    userId: 'user-1',
    tenantId: 'tenant-1',
    clientId: 'client-1',
    createdAt: new Date('2029-12-31T00:00:00Z'),
    lastActiveAt: new Date('2029-12-31T00:00:00Z'),
    expiresAt: new Date('2030-01-01T00:00:00Z'),
    ip: null,
    userAgent: null,
    methods: [],
  },
  browserSession: false,
  refreshToken: false,
  validUntil: new Date('2030-01-01T00:00:00Z'),
  ...overrides,
});

const NOW = new Date('2029-12-31T23:59:00Z');

describe('SessionValidationCache', () => {
  it('answers an access token from memory until its grant, user, client, tenant or application changes, per application', async () => {
    const bus = createInvalidationBus();
    const cache = new SessionValidationCache(bus, 60_000);
    let loads = 0;
    const load = async () => ((loads += 1), known());
    for (const [kind, id] of [['grant', 'grant-1'], ['user', 'user-1'], ['oauth_client', 'client-1'], ['tenant', 'tenant-1'], ['application', 'app-1']] as const) {
      await cache.find('app-1', 'token', NOW, load);
      await cache.find('app-1', 'token', NOW, load);
      const before = loads;
      await bus.publish({ kind, id });
      await cache.find('app-1', 'token', NOW, load);
      expect(loads, kind).toBe(before + 1);
    }
    await cache.find('app-2', 'token', NOW, async () => ((loads += 1), undefined));
    expect(loads).toBe(7);
  });

  it('reads again past the end of the token, grant or session it found; never keeps a refresh token or an invalid answer', async () => {
    const cache = new SessionValidationCache(createInvalidationBus(), 60_000);
    await cache.find('app-1', 'token', NOW, async () => known());
    expect(await cache.find('app-1', 'token', new Date('2030-01-01T00:00:01Z'), async () => undefined)).toBeUndefined();
    let loads = 0;
    for (const answer of [known({ refreshToken: true }), undefined, undefined]) {
      await cache.find('app-1', 'refresh', NOW, async () => ((loads += 1), answer));
    }
    expect(loads).toBe(3);
  });
});
