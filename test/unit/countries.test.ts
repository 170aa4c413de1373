import { describe, expect, it } from 'vitest';
import { isCountryCode } from '../../src/domain/organizations/countries.ts';

describe('isCountryCode', () => {
  it('knows the 249 assigned ISO 3166-1 alpha-2 codes and XK, and none of the other pairs of letters', () => {
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const known = [...letters].flatMap((first) => [...letters].map((second) => `${first}${second}`)).filter(isCountryCode);
    expect(known).toHaveLength(250);
    for (const code of ['DE', 'GB', 'US', 'AX', 'BQ', 'SS', 'XK']) expect(isCountryCode(code), code).toBe(true);
    for (const code of ['UK', 'EU', 'YU', 'ZZ', 'AA', 'de', 'DEU', '']) expect(isCountryCode(code), code).toBe(false);
  });
});
