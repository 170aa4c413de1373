import { describe, expect, it } from 'vitest';
import { redirectUriProblem, redirectUris } from '../../src/domain/oauth-clients/redirect-uris.ts';
import { GatehouseError } from '../../src/errors.ts';

const ACCEPTED: Record<'web' | 'spa' | 'native', string[]> = {
  web: [
    'https://app.example.com/callback',
    'https://App.Example.com:8443/cb?tenant=a',
    'http://localhost:3000/cb',
    'http://127.0.0.1:8080/cb',
    'http://[::1]/cb',
    'https://intranet/cb',
    'https://10.1.2.3/cb',
    'https://[2001:db8::1]:8443/cb',
    'https://bücher.example/cb',
  ],
  spa: ['https://spa.example.com/', 'http://localhost/cb'],
  native: [
    'com.example.app:/oauth2redirect/example-provider',
    'com.example.app://callback',
    'https://app.example.com/ios-callback',
    'http://127.0.0.1/cb',
    'http://127.0.0.1:51004/oauth2redirect',
    'http://[::1]:8080/',
  ],
};

const REFUSED: Record<'web' | 'spa' | 'native', string[]> = {
  web: [
    '',
    'http://app.example.com/cb',
    'https://app.example.com/cb#section',
    'https://app.example.com/cb#',
    'https://*.example.com/cb',
    'https://app.example.com/cb*',
    '/callback',
    '//app.example.com/cb',
    'https://user@app.example.com/cb',
    'https://app.example.com/a b',
    'https://app.example.com/cb\n',
    'http://localhost.example.com/cb',
    'http://127.0.0.2/cb',
    'com.example.app:/cb',
    'javascript:alert(1)',
    'file:///etc/passwd',
    `https://app.example.com/${'a'.repeat(2000)}`,
    // Hosts the URL parser lets through, which would end a directive of the pages' Content-Security-Policy.
    'https://app;sandbox/cb',
    'https://a,b.example/cb',
    "https://a'b.example/cb",
    'https://a"b.example/cb',
    // Hosts a CSP source cannot name: the form-action of the hosted pages could not let the sign-in through to them.
    'https://my_app.example/cb',
    'https://app.example./cb',
  ],
  spa: ['data:text/html,<script>1</script>', 'http://10.0.0.1/cb', 'ftp://app.example.com/', 'http://LOCALHOST.:3000/cb', 'http://0x7f000001/cb'],
  native: [
    'http://localhost:8080/cb',
    'http://example.com/cb',
    'myapp:/cb',
    'myapp://cb',
    'javascript:alert(1)',
    'com.example.app:/cb#x',
    // Loopback in other spellings, which URL parsing turns into 127.0.0.1: the stored string is what is matched.
    'http://127.1/cb',
    'http://0x7f000001/cb',
    'http://2130706433/cb',
    'http://127.0.0.01/cb',
  ],
};

describe('redirect URIs', () => {
  for (const [type, uris] of Object.entries(ACCEPTED) as [keyof typeof ACCEPTED, string[]][]) {
    it.each(uris)(`${type} accepts %s`, (uri) => expect(redirectUriProblem(type, uri)).toBeNull());
  }
  for (const [type, uris] of Object.entries(REFUSED) as [keyof typeof REFUSED, string[]][]) {
    it.each(uris)(`${type} refuses %s`, (uri) => expect(redirectUriProblem(type, uri)).toEqual(expect.any(String)));
  }

  it('keeps the exact strings, drops duplicates, and names the refused index', () => {
    expect(redirectUris('redirectUris', 'web', ['https://b.example.com/', 'https://a.example.com', 'https://b.example.com/'], true)).toEqual([
      'https://b.example.com/',
      'https://a.example.com',
    ]);
    const refusal = (() => {
      try {
        redirectUris('postLogoutRedirectUris', 'spa', ['https://ok.example.com/', 'http://bad.example.com/'], false);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(GatehouseError);
    expect(refusal).toMatchObject({ code: 'validation_error', field: 'postLogoutRedirectUris[1]' });
    expect(() => redirectUris('redirectUris', 'native', [], true)).toThrow(expect.objectContaining({ field: 'redirectUris' }));
    expect(redirectUris('postLogoutRedirectUris', 'native', [], false)).toEqual([]);
    expect(redirectUris('redirectUris', 'device', [], true)).toEqual([]);
    expect(() => redirectUris('redirectUris', 'device', ['https://tv.example.com/'], true)).toThrow(expect.objectContaining({ field: 'redirectUris' }));
  });
});
