import { describe, expect, it } from 'vitest';
import { copyKeysFor } from '../../dashboard/src/copy-keys.ts';
import { isBrandableCopyKey } from '../../src/domain/branding/copy/index.ts';
import { EN } from '../../src/domain/branding/copy/en.ts';
import { APPLICATION_LOOK_COPY_KEYS } from '../../src/domain/branding/copy/unbranded.ts';

/** The branding form offers exactly the keys the API takes: none it would refuse with 422, none it takes left out. */
describe('the dashboard’s copy keys', () => {
  const brandable = Object.keys(EN).filter(isBrandableCopyKey);

  it('offers an application every brandable key, and none of the pages no branding reaches', () => {
    expect([...copyKeysFor(false)].sort()).toEqual(brandable.sort());
    for (const key of ['error.misdirected', 'error.unknownSurface', 'refusal.logoutNoApplication', 'refusal.logoutDevice']) {
      expect(isBrandableCopyKey(key)).toBe(false);
      expect(copyKeysFor(false)).not.toContain(key);
    }
  });

  it('offers a tenant’s override every brandable key but the tenant picker’s', () => {
    expect([...copyKeysFor(true)].sort()).toEqual(brandable.filter((key) => !APPLICATION_LOOK_COPY_KEYS.has(key)).sort());
    expect(copyKeysFor(true)).not.toContain('tenant.title');
  });
});
