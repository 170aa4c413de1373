import { describe, expect, it } from 'vitest';
import { clientHomeUrl } from '../../src/domain/oauth-clients/client-home.ts';
import { initiateLoginUri, redirectUriProblem, redirectUris } from '../../src/domain/oauth-clients/redirect-uris.ts';
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
    'HTTPS://App.Example.com/cb',
    'https://app.example.com/cb?next=%2Fhome%20page',
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
    // Characters that are not what they look like: IDNA drops the invisible ones, bidi marks reorder what is shown.
    'https://app\u200b.example.com/cb',
    'https://app.example.com\u200d/cb',
    'https://app.ex\u00adample.com/cb',
    'https://\u202eelpmaxe.moc/cb',
    'https://app.example.com/cb\u200e',
    'https://app.example.com/\u2066cb\u2069',
    'https://app.example.com/cb\ufeff',
    'https://app.example.com/cb\u2028',
    // A header split wherever the URI is written into one, in either case.
    'https://app.example.com/cb%0d%0aSet-Cookie:a=b',
    'https://app.example.com/cb?x=%0A',
    'https://app.example.com/cb%0D',
    'https://app.example.com/cb%00',
    // Non-ASCII outside the host: percent-encoded on the way, so not the URI stored.
    'https://app.example.com/café',
    'https://app.example.com/cb?q=ü',
    // A browser reads `\` as `/` in an http(s) URI, and fills in a missing `//`: another URI than the one written.
    'https://app.example.com\\callback',
    'https://app.example.com\\@evil.example/cb',
    'https://app.example.com/cb\\x',
    'https:\\\\app.example.com/cb',
    'https:app.example.com/cb',
    'https:/app.example.com/cb',
    'https:///app.example.com/cb',
    'http:localhost:3000/cb',
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
    'com.example.app:/cb\u200b',
    'com.example.app:/cb%0a',
    'com.example.app:/café',
    'com.example.app:/cb\\x',
    'http:127.0.0.1:8080/cb',
  ],
};

describe('redirect URIs', () => {
  for (const [type, uris] of Object.entries(ACCEPTED) as [keyof typeof ACCEPTED, string[]][]) {
    it.each(uris)(`${type} accepts %s`, (uri) => expect(redirectUriProblem(type, uri)).toBeNull());
  }
  for (const [type, uris] of Object.entries(REFUSED) as [keyof typeof REFUSED, string[]][]) {
    it.each(uris)(`${type} refuses %s`, (uri) => expect(redirectUriProblem(type, uri)).toEqual(expect.any(String)));
  }

  it('keeps the strings as written but for the scheme and host, in their normal form; drops duplicates; names the refused index', () => {
    expect(redirectUris('redirectUris', 'web', ['https://b.example.com/', 'https://a.example.com', 'HTTPS://B.Example.COM/'], true)).toEqual([
      'https://b.example.com/',
      'https://a.example.com',
    ]);
    expect(
      redirectUris('redirectUris', 'web', ['https://Bücher.Example:8443/Cb?A=%2F', 'http://LocalHost:3000/cb', 'https://[2001:DB8:0:0::1]/cb'], true),
    ).toEqual(['https://xn--bcher-kva.example:8443/Cb?A=%2F', 'http://localhost:3000/cb', 'https://[2001:db8::1]/cb']);
    expect(redirectUris('redirectUris', 'native', ['Com.Example.App:/Cb', 'http://127.0.0.1:8080/cb'], true)).toEqual(['com.example.app:/Cb', 'http://127.0.0.1:8080/cb']);
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

describe('login URIs (initiate_login_uri)', () => {
  it('follow a web client’s redirect URI rules whatever the type, in the same normal form; a device has none', () => {
    expect(initiateLoginUri('initiateLoginUri', 'native', 'HTTPS://App.Example.com/Start?x=1')).toBe('https://app.example.com/Start?x=1');
    expect(initiateLoginUri('initiateLoginUri', 'spa', 'http://localhost:5173/login')).toBe('http://localhost:5173/login');
    expect(initiateLoginUri('initiateLoginUri', 'web', null)).toBeNull();
    for (const uri of ['http://app.example.com/login', 'https://app.example.com/login#x', 'not a url', 'javascript:alert(1)', 'com.example.app:/login']) {
      expect(() => initiateLoginUri('initiateLoginUri', 'native', uri), uri).toThrow(expect.objectContaining({ code: 'validation_error', field: 'initiateLoginUri' }));
    }
    expect(() => initiateLoginUri('initiateLoginUri', 'device', 'https://tv.example.com/')).toThrow(expect.objectContaining({ field: 'initiateLoginUri' }));
  });

  it('lead the links back to a client there, with the issuer (OIDC Core 4); without one, to a web or SPA client’s first origin', () => {
    const issuer = 'https://auth.example.com/t/acme';
    const web = { type: 'web', redirectUris: ['https://app.example.com/cb'], initiateLoginUri: null } as const;
    expect(clientHomeUrl(web, issuer)).toBe('https://app.example.com/');
    expect(clientHomeUrl({ ...web, initiateLoginUri: 'https://app.example.com/login' }, issuer)).toBe(
      'https://app.example.com/login?iss=https%3A%2F%2Fauth.example.com%2Ft%2Facme',
    );
    expect(clientHomeUrl({ ...web, initiateLoginUri: 'https://app.example.com/login?from=x' }, issuer)).toBe(
      'https://app.example.com/login?from=x&iss=https%3A%2F%2Fauth.example.com%2Ft%2Facme',
    );
    const native = { type: 'native', redirectUris: ['com.example.app:/cb'], initiateLoginUri: null } as const;
    expect(clientHomeUrl(native, issuer)).toBeUndefined();
    expect(clientHomeUrl({ ...native, initiateLoginUri: 'https://app.example.com/ios' }, issuer)).toBe(
      'https://app.example.com/ios?iss=https%3A%2F%2Fauth.example.com%2Ft%2Facme',
    );
  });
});
