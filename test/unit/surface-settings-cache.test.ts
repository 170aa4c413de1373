import { describe, expect, it } from 'vitest';
import { createSurfaceSettingsCache, SURFACE_SETTINGS_CACHE_BYTES, type SurfaceSettings } from '../../src/domain/sign-in/surface-settings.ts';
import { createInvalidationBus } from '../../src/events/invalidations.ts';

describe('the surface settings cache', () => {
  it('keeps surfaces up to a weight, so large copies cannot fill the heap through its entry count', async () => {
    const cache = createSurfaceSettingsCache(createInvalidationBus(), 60_000);
    // One string shared by every entry: what is weighed is what each would hold once read from the database.
    const copy = 'x'.repeat(2 * 1024 * 1024);
    const surfaces = 40;
    for (let i = 0; i < surfaces; i += 1) {
      const settings = { application: { id: `app-${i}` }, tenant: null, look: { copy } } as unknown as SurfaceSettings;
      await cache.find(`app-${i}:`, async () => settings);
    }
    const kept = Array.from({ length: surfaces }, (_, i) => cache.get(`app-${i}:`)).filter((settings) => settings !== undefined).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept * 2 * copy.length).toBeLessThanOrEqual(SURFACE_SETTINGS_CACHE_BYTES);
    // The latest ones stay.
    expect(cache.get(`app-${surfaces - 1}:`)).toBeDefined();
  });
});
