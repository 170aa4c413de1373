import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shallowRootTag, XML_LIMITS } from '../../src/domain/sign-in/saml.ts';
import { certificatePem } from '../../src/domain/sign-in/saml-keys.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar } from '../support/cookie-jar.ts';
import { TestIdp } from '../support/saml-idp.ts';

/**
 * What a stranger's POSTs to the SAML ACS cost (it takes no credential): the sign-in throttle per address and
 * provider (a low limit here), a body limit fit for SAML, nesting refused before any parser, and no sign-in failure
 * recorded for a POST that is not a SAML response at all.
 */
const LIMIT = 4;

let app: TestApp;
const idp = new TestIdp();
let provider: { id: string; acsUrl: string; metadataUrl: string };
let other: { id: string; acsUrl: string };

beforeAll(async () => {
  app = await startTestApp({ signInRateLimit: { max: LIMIT, windowMs: 60_000 }, trustProxy: ['loopback'] }, { reachablePublicUrl: true });
  const config = idp.providerConfig();
  const created = await app.http.post('/auth-providers', { type: 'saml', name: 'Limited', config });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  provider = created.body as typeof provider;
  // One SAML provider per application: the other is another application's.
  const another = await app.bootstrapAnother();
  const second = await app.as({ apiKey: another.apiKey }).post('/auth-providers', { type: 'saml', name: 'Other', config });
  expect(second.status, JSON.stringify(second.body)).toBe(201);
  other = second.body as typeof other;
});
afterAll(async () => app?.close());

const failures = async () => ((await app.http.get('/audit-logs?action=user.sign_in_failed&pageSize=100')).body.data as unknown[]).length;
/** A POST from `address` (the proxy in front, loopback, names it). */
const post = (acsUrl: string, form: Record<string, string>, address = `203.0.113.${1 + Math.floor(Math.random() * 250)}`) =>
  new CookieJar().visit(acsUrl, { method: 'POST', form, headers: { 'x-forwarded-for': address } });
const encoded = (xml: string) => Buffer.from(xml).toString('base64');

describe('the SAML ACS against strangers', () => {
  it('a POST that is no SAML response is refused without a sign-in failure record; a Response that fails its checks is recorded', async () => {
    const before = await failures();
    for (const form of [{} as Record<string, string>, { SAMLResponse: '' }, { SAMLResponse: 'PHg+' }, { SAMLResponse: encoded('<samlp:Response xmlns:samlp="urn:example:other"/>') }]) {
      const refused = await post(provider.acsUrl, form);
      expect(refused.status).toBe(400);
      expect(refused.body).toContain('could not be verified');
    }
    expect(await failures()).toBe(before);
    const unsigned = idp.response({ acsUrl: provider.acsUrl, audience: `${provider.acsUrl.replace(/acs$/, 'metadata')}`, email: 'x@saml.test', sign: 'none' });
    expect((await post(provider.acsUrl, { SAMLResponse: unsigned })).status).toBe(400);
    expect(await failures()).toBe(before + 1);
  });

  it('a response nested past any real one is refused before it is parsed, unrecorded', async () => {
    const before = await failures();
    const deep = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_x">${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</samlp:Response>`;
    const refused = await post(provider.acsUrl, { SAMLResponse: encoded(deep) });
    expect(refused.status).toBe(400);
    expect(await failures()).toBe(before);
  });

  it('an encrypted assertion nested past any real one is refused before it is parsed, unrecorded: anyone may encrypt to the SP', async () => {
    const metadata = await (await fetch(provider.metadataUrl)).text();
    const certificate = certificatePem(Buffer.from(/<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/.exec(metadata)![1]!, 'base64'));
    const options = { acsUrl: provider.acsUrl, audience: provider.metadataUrl, email: 'deep@saml.test' };
    const before = await failures();
    const refused = await post(provider.acsUrl, { SAMLResponse: await idp.encryptedResponse({ ...options, nested: 60 }, certificate) });
    expect(refused.status).toBe(400);
    expect(await failures()).toBe(before);
    // One of a real response's depth is read (and refused here for want of an account, recorded).
    expect((await post(provider.acsUrl, { SAMLResponse: await idp.encryptedResponse({ ...options, nested: 20 }, certificate) })).status).toBe(400);
    expect(await failures()).toBe(before + 1);
  });

  it('a response holding more nodes, or an element more children, than any real one is refused before it is parsed, unrecorded; one with Entra ID’s 150 groups is read', async () => {
    const options = { acsUrl: provider.acsUrl, audience: provider.metadataUrl, email: 'crowded@saml.test' };
    const before = await failures();
    // Signed as the IdP signs it: elements beside the assertion leave its signature valid, and were read (for minutes).
    const xml = Buffer.from(idp.response(options), 'base64').toString('utf8');
    const siblings = '<a/>'.repeat(XML_LIMITS.children);
    const parents = `<p>${'<a/>'.repeat(XML_LIMITS.children - 1)}</p>`.repeat(Math.ceil(XML_LIMITS.nodes / XML_LIMITS.children));
    for (const added of [siblings, parents]) {
      const refused = await post(provider.acsUrl, { SAMLResponse: encoded(xml.replace('</samlp:Response>', `${added}</samlp:Response>`)) });
      expect(refused.status).toBe(400);
      expect(refused.body).toContain('could not be verified');
    }
    expect(await failures()).toBe(before);
    // Read (and refused here for want of an account, recorded).
    expect((await post(provider.acsUrl, { SAMLResponse: idp.response({ ...options, groups: 150 }) })).status).toBe(400);
    expect(await failures()).toBe(before + 1);
  });

  it('takes a body of a SAML message’s size, not the service’s 1 MiB', async () => {
    const large = await post(other.acsUrl, { SAMLResponse: 'A'.repeat(300 * 1024) });
    expect(large.status).toBe(413);
  });

  it(`answers ${LIMIT} POSTs a window per address and provider, then 429 before reading them; another provider has its own budget`, async () => {
    const address = '198.51.100.7';
    for (let attempt = 1; attempt <= LIMIT; attempt += 1) expect((await post(provider.acsUrl, { SAMLResponse: 'PHg+' }, address)).status).toBe(400);
    const throttled = await post(provider.acsUrl, { SAMLResponse: 'PHg+' }, address);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(throttled.body).toContain('<h1>Too many attempts</h1>');
    // Refused before the body is read: a body over the limit is 429 too, not 413.
    expect((await post(provider.acsUrl, { SAMLResponse: 'A'.repeat(300 * 1024) }, address)).status).toBe(429);
    // Another provider's ACS, and another address, have budgets of their own.
    expect((await post(other.acsUrl, { SAMLResponse: 'PHg+' }, address)).status).toBe(400);
    expect((await post(provider.acsUrl, { SAMLResponse: 'PHg+' }, '198.51.100.8')).status).toBe(400);
  });

  it('counts a provider by its id, not by how the URL spells it: its id in capitals, or ids no provider has, buy no fresh budget', async () => {
    const address = '198.51.100.9';
    for (let attempt = 1; attempt <= LIMIT; attempt += 1) expect((await post(provider.acsUrl, { SAMLResponse: 'PHg+' }, address)).status).toBe(400);
    // The same provider, found whatever the case of its id, is the same budget.
    expect((await post(provider.acsUrl.replace(provider.id, provider.id.toUpperCase()), { SAMLResponse: 'PHg+' }, address)).status).toBe(429);
    // Paths no provider could have share one budget among them, and their text is no counter's name.
    const junk = (n: number) => `${provider.acsUrl.replace(provider.id, `${'x'.repeat(900)}${n}`)}`;
    for (let attempt = 1; attempt <= LIMIT; attempt += 1) expect((await post(junk(attempt), { SAMLResponse: 'PHg+' }, address)).status).toBe(404);
    expect((await post(junk(0), { SAMLResponse: 'PHg+' }, address)).status).toBe(429);
  });
});

describe('the nesting check', () => {
  it('returns the root start tag of a document nesting at most the limit, else null', () => {
    expect(shallowRootTag('<?xml version="1.0"?><!-- c --><r a="x>y"><b/><c><![CDATA[<<<]]></c></r>')).toBe('<r a="x>y">');
    const depth = { ...XML_LIMITS, depth: 11 };
    expect(shallowRootTag(`<r>${'<a>'.repeat(10)}${'</a>'.repeat(10)}</r>`, depth)).toBe('<r>');
    expect(shallowRootTag(`<r>${'<a>'.repeat(11)}${'</a>'.repeat(11)}</r>`, depth)).toBeNull();
    expect(shallowRootTag('<r/><s/>')).toBeNull();
    expect(shallowRootTag('<r>')).toBeNull();
    expect(shallowRootTag('</r>')).toBeNull();
    expect(shallowRootTag('<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>')).toBeNull();
    expect(shallowRootTag('no xml')).toBeNull();
  });

  it('returns null past the limit of nodes (elements, attributes, comments, CDATA sections, processing instructions) or of an element’s children', () => {
    const nodes = { ...XML_LIMITS, nodes: 10 };
    const attributes = (count: number) => Array.from({ length: count }, (_, index) => ` a${index}="="`).join('');
    expect(shallowRootTag(`<r>${'<a/>'.repeat(9)}</r>`, nodes)).toBe('<r>');
    expect(shallowRootTag(`<r>${'<a/>'.repeat(10)}</r>`, nodes)).toBeNull();
    expect(shallowRootTag(`<r${attributes(9)}/>`, nodes)).toBe(`<r${attributes(9)}/>`);
    expect(shallowRootTag(`<r${attributes(10)}/>`, nodes)).toBeNull();
    expect(shallowRootTag(`<r><a b="1"/>${'<!-- c -->'.repeat(7)}</r>`, nodes)).toBe('<r>');
    for (const node of ['<!-- c -->', '<![CDATA[x]]>', '<?p x?>']) expect(shallowRootTag(`<r>${node.repeat(10)}</r>`, nodes)).toBeNull();
    expect(shallowRootTag(`<?xml version="1.0"?>${'<!-- c -->'.repeat(10)}<r/>`, nodes)).toBeNull();
    const children = { ...XML_LIMITS, children: 4 };
    const parents = `<r>${`<p>${'<a/>'.repeat(4)}</p>`.repeat(4)}</r>`;
    expect(shallowRootTag(parents, children)).toBe('<r>');
    expect(shallowRootTag(parents.replace('<p>', '<p><!-- c -->'), children)).toBeNull();
    expect(shallowRootTag(`<r>${'<p/>'.repeat(5)}</r>`, children)).toBeNull();
  });
});
