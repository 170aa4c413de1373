import { describe, expect, it } from 'vitest';
import { allowedOrigins, MAX_ALLOWED_ORIGINS } from '../../src/domain/oauth-clients/allowed-origins.ts';
import { GatehouseError } from '../../src/errors.ts';

/** As written → as stored (the Origin header a browser or web view sends). */
const NORMALIZED: [string, string][] = [
  ['capacitor://localhost', 'capacitor://localhost'],
  ['ionic://localhost', 'ionic://localhost'],
  ['http://localhost', 'http://localhost'],
  ['http://localhost:8100', 'http://localhost:8100'],
  ['https://localhost', 'https://localhost'],
  ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
  ['http://[::1]:3000', 'http://[::1]:3000'],
  ['HTTPS://App.Example.COM', 'https://app.example.com'],
  ['https://app.example.com:443', 'https://app.example.com'],
  ['http://localhost:80', 'http://localhost'],
  ['https://app.example.com:8443', 'https://app.example.com:8443'],
  ['https://app.example.com:08443', 'https://app.example.com:8443'],
  ['Capacitor://LocalHost', 'capacitor://localhost'],
  ['com.example.app://localhost:443', 'com.example.app://localhost:443'],
  ['https://xn--bcher-kva.example', 'https://xn--bcher-kva.example'],
];

const REFUSED: [string, RegExp][] = [
  ['', /1 to \d+ characters/],
  ['null', /null/],
  ['NULL', /null/],
  ['*', /wildcard/],
  ['https://*.example.com', /wildcard/],
  ['https://app.example.com/', /path/],
  ['https://app.example.com/callback', /path/],
  ['capacitor://localhost/', /path/],
  ['https://app.example.com?x=1', /query/],
  ['https://app.example.com?', /query/],
  ['https://app.example.com#top', /fragment/],
  ['https://user@app.example.com', /user information/],
  ['https://user:secret@app.example.com', /user information/],
  ['app.example.com', /scheme:\/\/host/],
  ['//app.example.com', /scheme:\/\/host/],
  ['capacitor:localhost', /scheme:\/\/host/],
  ['capacitor://', /host/],
  ['https://', /host/],
  ['https://app.example.com:', /port/],
  ['https://app.example.com:99999', /port/],
  ['https://app.example.com:0', /port/],
  ['https://app.example.com:abc', /port/],
  ['http://app.example.com', /https/],
  ['http://192.168.1.10:8100', /https/],
  ['file://localhost', /null/],
  ['data://x', /null/],
  [' https://app.example.com', /whitespace/],
  ['https://app.example.com\n', /whitespace/],
  ['https://app.example.com\\', /backslash/],
  ['https://bücher.example', /ASCII/],
  ['https://%61pp.example.com', /domain name or IP address/],
  ['https://app_example.com', /domain name or IP address/],
  ['https://app.example.com.', /domain name or IP address/],
  ['https://127.1', /as a browser writes it/],
  ['https://0x7f.0.0.1', /as a browser writes it/],
];

function refusal(run: () => unknown): { field: string | undefined; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof GatehouseError && error.code === 'validation_error') return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error('expected a validation_error');
}

describe('allowed origins', () => {
  it.each(NORMALIZED)('%j is stored as %j', (written, stored) => {
    expect(allowedOrigins('allowedOrigins', 'native', [written])).toEqual([stored]);
  });

  it.each(REFUSED)('%j is refused, naming its index', (origin, reason) => {
    const { field, message } = refusal(() => allowedOrigins('allowedOrigins', 'spa', ['capacitor://localhost', origin]));
    expect(field).toBe('allowedOrigins[1]');
    expect(message).toMatch(reason);
  });

  it('drops duplicates once normalized, in the order given', () => {
    expect(allowedOrigins('allowedOrigins', 'spa', ['capacitor://localhost', 'https://a.example:443', 'CAPACITOR://localhost', 'https://A.example'])).toEqual([
      'capacitor://localhost',
      'https://a.example',
    ]);
  });

  it(`holds at most ${MAX_ALLOWED_ORIGINS}`, () => {
    const many = Array.from({ length: MAX_ALLOWED_ORIGINS + 1 }, (_, index) => `http://localhost:${3000 + index}`);
    expect(allowedOrigins('allowedOrigins', 'spa', many.slice(1))).toHaveLength(MAX_ALLOWED_ORIGINS);
    expect(refusal(() => allowedOrigins('allowedOrigins', 'spa', many))).toEqual({ field: 'allowedOrigins', message: expect.stringMatching(/at most 20/) });
  });

  it('public clients of every type may have them; a web client (confidential) may not', () => {
    for (const type of ['spa', 'native', 'device'] as const) expect(allowedOrigins('allowedOrigins', type, ['ionic://localhost'])).toEqual(['ionic://localhost']);
    expect(allowedOrigins('allowedOrigins', 'web', [])).toEqual([]);
    expect(refusal(() => allowedOrigins('allowedOrigins', 'web', ['https://app.example.com']))).toEqual({
      field: 'allowedOrigins',
      message: expect.stringMatching(/confidential/),
    });
  });
});
