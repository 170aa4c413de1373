import { generateKeyPairSync, randomUUID, sign as nodeSign, verify, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import { encrypt } from 'xml-encryption';
import type { UpstreamConfig } from '../../src/config.ts';

/**
 * A SAML 2.0 identity provider for tests: it reads the service's AuthnRequests (HTTP-Redirect binding) and signs real
 * responses with a test-only key and certificate (checked in beside this file, for tests only), every part of which a
 * test may spoil (the signer, audience, recipient, times, signature placement). `serve()` adds an HTTP endpoint for a
 * browser: its SSO URL answers a page whose form posts the response to the ACS.
 */
const KEY = readFileSync(new URL('./saml/idp-test-key.pem', import.meta.url), 'utf8');
export const IDP_CERTIFICATE = readFileSync(new URL('./saml/idp-test-cert.pem', import.meta.url), 'utf8');
/** A self-signed P-256 certificate (CN=idp.example.com, valid until 2126): a key no SAML signature is verified with. */
export const EC_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIBizCCATGgAwIBAgIUbSe7F4Gp5ASKhJJNwWCWLIK/R9wwCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPaWRwLmV4YW1wbGUuY29tMCAXDTI2MTEyMzA1MTkxOFoYDzIx
MjYxMDMwMDUxOTE4WjAaMRgwFgYDVQQDDA9pZHAuZXhhbXBsZS5jb20wWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAAQq8KByFw/ipfdZ1w730GHEylWrqMb3V1WdslPc
9VIawJ8Lzcapk2xZWjPybb1waD2fA/6TzCgF0qWMISHcCSZVo1MwUTAdBgNVHQ4E
FgQUre+J2FLr2jRhVpns0XoTQiE1qc4wHwYDVR0jBBgwFoAUre+J2FLr2jRhVpns
0XoTQiE1qc4wDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiBhnQDb
cpYAmV4Ai++8PXySmeoK7Dj9BzazzM93MPuGtQIhANpHHgTbVW3CyojDYrW/ufL3
ccpTeKscovTcyjCz6ubr
-----END CERTIFICATE-----`;

export interface AuthnRequestSeen {
  readonly id: string;
  readonly acsUrl: string;
  readonly relayState: string | null;
  /** `ForceAuthn="true"`: a fresh sign-in asked, not one from the IdP's session. */
  readonly forceAuthn: boolean;
}

/** An IdP-initiated sign-in's target: the ACS, and no request to answer. */
export interface Unsolicited {
  readonly id?: undefined;
  readonly acsUrl: string;
  readonly relayState: null;
}

export interface ResponseOptions {
  readonly acsUrl: string;
  readonly audience: string;
  readonly email: string;
  /** The AuthnRequest answered; none: IdP-initiated. */
  readonly inResponseTo?: string;
  /** The bearer confirmation's InResponseTo, when it is not the response's; null: the confirmation names none. */
  readonly confirmationInResponseTo?: string | null;
  /** The bearer confirmation's Recipient (default: the ACS). */
  readonly recipient?: string;
  /** Seconds the assertion's window is shifted by (negative: in the past). */
  readonly shiftSeconds?: number;
  /** Seconds the IssueInstant of the assertion and response alone is shifted by, after `shiftSeconds`. */
  readonly issuedSeconds?: number;
  /** Seconds the AuthnStatement's AuthnInstant (the IdP's sign-in) is shifted by, after `shiftSeconds`; null: the
   *  statement states none (default: 0, the sign-in just now). */
  readonly authnSeconds?: number | null;
  /** Conditions without NotBefore and NotOnOrAfter (SAML core makes them optional): the bearer confirmation's bound the window. */
  readonly conditionsUntimed?: boolean;
  /** `assertion` (default), `response`, or `none` (unsigned). */
  readonly sign?: 'assertion' | 'response' | 'none';
  /** Signed with another key than the certificate's. */
  readonly wrongKey?: boolean;
  /** The attribute holding the e-mail (default `email`). */
  readonly emailAttribute?: string;
  readonly issuer?: string;
  /** The subject's NameID (default: a new one). */
  readonly nameId?: string;
  /** Its format (default: persistent). */
  readonly nameIdFormat?: string;
  /** Elements nested this deep in the assertion's Advice (default: no Advice). */
  readonly nested?: number;
  /** A `groups` attribute with this many values, each typed as Okta and AD FS type them (default: none). */
  readonly groups?: number;
}

export interface LogoutRequestOptions {
  /** The SP's single logout endpoint, which the request names as its Destination. */
  readonly destination: string;
  readonly nameId: string;
  readonly issuer?: string;
  /** Seconds its IssueInstant is shifted by (negative: in the past). */
  readonly shiftSeconds?: number;
  /** Signed (default), unsigned, or signed with another key than the certificate's. */
  readonly sign?: 'valid' | 'none' | 'wrongKey';
}

/** The LogoutResponse a redirect back to the IdP carries. */
export interface LogoutResponseSeen {
  readonly inResponseTo: string | null;
  readonly status: string | null;
  readonly relayState: string | null;
}

/** The HTTP-Redirect binding's signature of a request (SAML bindings 3.4.4.1), as the IdP checks it. */
export type RequestSignature = 'none' | 'valid' | 'invalid';

const SIGNATURE = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const DIGEST = 'http://www.w3.org/2001/04/xmlenc#sha256';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

/** A key the IdP's certificate does not hold. */
const otherKey = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' });

const escape = (value: string) => value.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);

const groupValues = (count: number) =>
  Array.from(
    { length: count },
    () =>
      `<saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">${randomUUID()}</saml:AttributeValue>`,
  ).join('');

/** Upstream settings that let a test's IdP on 127.0.0.1 be reached (GitHub left at its real address, unused). */
export const LOOPBACK_UPSTREAMS: UpstreamConfig = { allowLoopback: true, allowPrivateHosts: false, githubUrl: 'https://github.com', githubApiUrl: 'https://api.github.com' };

export class TestIdp {
  readonly entityId = `https://idp.test/${randomUUID()}`;
  readonly certificate = IDP_CERTIFICATE;
  /** The NameIDs of the LogoutRequests its served `/slo` answered. */
  readonly logoutsSeen: string[] = [];
  private server: Server | undefined;

  /** A `saml` provider's config trusting this IdP (its SSO URL a placeholder the tests answer themselves); `extra` adds or overrides. */
  providerConfig(extra: Record<string, unknown> = {}) {
    return { entityId: this.entityId, ssoUrl: 'https://idp.test/sso', certificate: this.certificate, ...extra };
  }

  /** What the service's redirect to the IdP asks: the AuthnRequest's ID and ACS, RelayState, and whether it forces a sign-in. */
  readRequest(location: string): AuthnRequestSeen {
    const url = new URL(location);
    const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
    const id = /\sID="([^"]+)"/.exec(xml)?.[1];
    const acsUrl = /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1];
    if (id === undefined || acsUrl === undefined) throw new Error(`not an AuthnRequest: ${xml}`);
    const forceAuthn = /<samlp:AuthnRequest\b[^>]*\sForceAuthn="true"/.test(xml);
    return { id, acsUrl, relayState: url.searchParams.get('RelayState'), forceAuthn };
  }

  /**
   * Whether the redirect's request (or LogoutResponse) is signed, and by the key of `certificate` (the SP's, from its
   * metadata): the signature covers `SAMLRequest` or `SAMLResponse`, `RelayState` and `SigAlg` as the query spells
   * them, in that order.
   */
  redirectSignature(location: string, certificate: string): RequestSignature {
    const parts = new Map(new URL(location).search.slice(1).split('&').map((part) => [part.slice(0, part.indexOf('=')), part] as const));
    const signature = parts.get('Signature');
    if (signature === undefined) return 'none';
    if (decodeURIComponent(parts.get('SigAlg') ?? '').split('=')[1] !== SIGNATURE) return 'invalid';
    const signed = ['SAMLRequest', 'SAMLResponse', 'RelayState', 'SigAlg'].flatMap((name) => parts.get(name) ?? []).join('&');
    const bytes = Buffer.from(decodeURIComponent(signature.slice('Signature='.length)), 'base64');
    return verify('sha256', Buffer.from(signed), new X509Certificate(certificate).publicKey, bytes) ? 'valid' : 'invalid';
  }

  /** A response whose signed assertion is encrypted to `certificate` (AES-256-GCM, the key by RSA-OAEP). */
  async encryptedResponse(options: ResponseOptions, certificate: string): Promise<string> {
    const parts = this.parts(options);
    const signedAssertion = this.sign(parts.assertion, 'Assertion', options.wrongKey === true);
    const encrypted = await new Promise<string>((resolve, reject) =>
      encrypt(
        signedAssertion,
        {
          rsa_pub: new X509Certificate(certificate).publicKey.export({ type: 'spki', format: 'pem' }),
          pem: certificate,
          encryptionAlgorithm: 'http://www.w3.org/2009/xmlenc11#aes256-gcm',
          keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
    return Buffer.from(parts.response(`<saml:EncryptedAssertion>${encrypted}</saml:EncryptedAssertion>`)).toString('base64');
  }

  /** A refusal answering `inResponseTo` (no assertion, unsigned, as IdPs send one when their user cancels or fails):
   *  status Responder, `nested` the second-level status. */
  statusResponse(acsUrl: string, inResponseTo: string, nested = 'urn:oasis:names:tc:SAML:2.0:status:AuthnFailed'): string {
    const xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${escape(acsUrl)}" InResponseTo="${escape(inResponseTo)}">` +
      `<saml:Issuer>${escape(this.entityId)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder"><samlp:StatusCode Value="${escape(nested)}"/></samlp:StatusCode>` +
      `<samlp:StatusMessage>The user cancelled</samlp:StatusMessage></samlp:Status></samlp:Response>`;
    return Buffer.from(xml).toString('base64');
  }

  /** A base64 SAMLResponse as the HTTP-POST binding carries it. */
  response(options: ResponseOptions): string {
    const { assertion, response: around } = this.parts(options);
    const response = around(assertion);
    const sign = options.sign ?? 'assertion';
    const xml = sign === 'none' ? response : this.sign(response, sign === 'assertion' ? 'Assertion' : 'Response', options.wrongKey === true);
    return Buffer.from(xml).toString('base64');
  }

  /** The assertion `options` describe, and the response around a given assertion (plain or encrypted). */
  private parts(options: ResponseOptions): { assertion: string; response: (assertion: string) => string } {
    const now = Date.now() + (options.shiftSeconds ?? 0) * 1000;
    const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
    const issuer = escape(options.issuer ?? this.entityId);
    const answered = (id: string | undefined) => (id === undefined ? '' : ` InResponseTo="${escape(id)}"`);
    const inResponseTo = answered(options.inResponseTo);
    const assertion =
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a${randomUUID()}" Version="2.0" IssueInstant="${at(options.issuedSeconds ?? 0)}">` +
      `<saml:Issuer>${issuer}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="${escape(options.nameIdFormat ?? 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent')}">${escape(options.nameId ?? `user-${randomUUID()}`)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData NotOnOrAfter="${at(300)}" Recipient="${escape(options.recipient ?? options.acsUrl)}"${answered(options.confirmationInResponseTo === null ? undefined : (options.confirmationInResponseTo ?? options.inResponseTo))}/>` +
      `</saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions${options.conditionsUntimed === true ? '' : ` NotBefore="${at(-30)}" NotOnOrAfter="${at(300)}"`}><saml:AudienceRestriction><saml:Audience>${escape(options.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      (options.nested === undefined ? '' : `<saml:Advice>${'<x>'.repeat(options.nested)}${'</x>'.repeat(options.nested)}</saml:Advice>`) +
      `<saml:AuthnStatement${options.authnSeconds === null ? '' : ` AuthnInstant="${at(options.authnSeconds ?? 0)}"`} SessionIndex="_s${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      `<saml:AttributeStatement><saml:Attribute Name="${escape(options.emailAttribute ?? 'email')}"><saml:AttributeValue>${escape(options.email)}</saml:AttributeValue></saml:Attribute>` +
      (options.groups === undefined ? '' : `<saml:Attribute Name="groups" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${groupValues(options.groups)}</saml:Attribute>`) +
      `</saml:AttributeStatement>` +
      `</saml:Assertion>`;
    const response = (inside: string) =>
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${at(options.issuedSeconds ?? 0)}" Destination="${escape(options.acsUrl)}"${inResponseTo}>` +
      `<saml:Issuer>${issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      `${inside}</samlp:Response>`;
    return { assertion, response };
  }

  /** A LogoutRequest (its ID and XML) as the IdP's single logout sends it. */
  private logoutRequest(options: LogoutRequestOptions): { id: string; xml: string } {
    const id = `_l${randomUUID()}`;
    const instant = new Date(Date.now() + (options.shiftSeconds ?? 0) * 1000).toISOString();
    const xml =
      `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${instant}" Destination="${escape(options.destination)}">` +
      `<saml:Issuer>${escape(options.issuer ?? this.entityId)}</saml:Issuer>` +
      `<saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${escape(options.nameId)}</saml:NameID>` +
      `<samlp:SessionIndex>_s${randomUUID()}</samlp:SessionIndex></samlp:LogoutRequest>`;
    return { id, xml };
  }

  /** The LogoutRequest by the HTTP-Redirect binding: the destination's URL, its query signed as bindings 3.4.4.1 says. */
  logoutRedirect(options: LogoutRequestOptions, relayState?: string): { id: string; url: string } {
    const { id, xml } = this.logoutRequest(options);
    const query = [`SAMLRequest=${encodeURIComponent(deflateRawSync(xml).toString('base64'))}`, ...(relayState === undefined ? [] : [`RelayState=${encodeURIComponent(relayState)}`])];
    const sign = options.sign ?? 'valid';
    if (sign !== 'none') {
      query.push(`SigAlg=${encodeURIComponent(SIGNATURE)}`);
      const signature = nodeSign('sha256', Buffer.from(query.join('&')), sign === 'wrongKey' ? otherKey() : KEY).toString('base64');
      query.push(`Signature=${encodeURIComponent(signature)}`);
    }
    return { id, url: `${options.destination}?${query.join('&')}` };
  }

  /** The LogoutRequest by the HTTP-POST binding: its base64 SAMLRequest, the document signed whole. */
  logoutPost(options: LogoutRequestOptions): { id: string; samlRequest: string } {
    const { id, xml } = this.logoutRequest(options);
    const sign = options.sign ?? 'valid';
    const signed = sign === 'none' ? xml : this.sign(xml, 'LogoutRequest', sign === 'wrongKey');
    return { id, samlRequest: Buffer.from(signed).toString('base64') };
  }

  /** What the SP's LogoutRequest (its redirect to the IdP's single logout, `location`) asks. */
  readLogoutRequest(location: string): { id: string; issuer: string | null; nameId: string | null; nameIdFormat: string | null; relayState: string | null } {
    const url = new URL(location);
    const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
    const id = /<samlp:LogoutRequest[^>]*\sID="([^"]+)"/.exec(xml)?.[1];
    if (id === undefined) throw new Error(`not a LogoutRequest: ${xml}`);
    const nameId = /<saml:NameID(?: Format="([^"]*)")?>([^<]*)<\/saml:NameID>/.exec(xml);
    const issuer = /<saml:Issuer[^>]*>([^<]*)<\/saml:Issuer>/.exec(xml)?.[1] ?? null;
    return { id, issuer, nameId: nameId?.[2] ?? null, nameIdFormat: nameId?.[1] ?? null, relayState: url.searchParams.get('RelayState') };
  }

  /** The IdP's answer to the SP's LogoutRequest `inResponseTo`, by HTTP-Redirect to `destination` (unsigned); `nested`
   *  elements deep inside its Extensions when given. */
  logoutResponse(destination: string, inResponseTo: string, nested = 0): string {
    const extensions = nested === 0 ? '' : `<samlp:Extensions>${'<x>'.repeat(nested)}${'</x>'.repeat(nested)}</samlp:Extensions>`;
    const xml =
      `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_lr${randomUUID()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${escape(destination)}" InResponseTo="${escape(inResponseTo)}">` +
      `<saml:Issuer>${escape(this.entityId)}</saml:Issuer>${extensions}<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>`;
    return `${destination}?SAMLResponse=${encodeURIComponent(deflateRawSync(xml).toString('base64'))}`;
  }

  /** What the SP's redirect back to the IdP (`location`) answers. */
  readLogoutResponse(location: string): LogoutResponseSeen {
    const url = new URL(location);
    const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLResponse') ?? '', 'base64')).toString('utf8');
    return {
      inResponseTo: /\sInResponseTo="([^"]+)"/.exec(xml)?.[1] ?? null,
      status: /<samlp:StatusCode Value="([^"]+)"/.exec(xml)?.[1] ?? null,
      relayState: url.searchParams.get('RelayState'),
    };
  }

  private sign(xml: string, element: 'Assertion' | 'Response' | 'LogoutRequest', wrongKey: boolean): string {
    const privateKey = wrongKey ? otherKey() : KEY;
    const signer = new SignedXml({ privateKey, publicCert: IDP_CERTIFICATE, signatureAlgorithm: SIGNATURE, canonicalizationAlgorithm: EXC_C14N });
    const node = `//*[local-name(.)='${element}']`;
    signer.addReference({ xpath: node, transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: DIGEST });
    // The signature goes after the element's Issuer, where the schema puts it.
    signer.computeSignature(xml, { location: { reference: `${node}/*[local-name(.)='Issuer']`, action: 'after' } });
    return signer.getSignedXml();
  }

  /**
   * An HTTP endpoint on loopback whose SSO URL (`{origin}/sso`) answers a page with a form that posts `respond`'s
   * answer to the request's ACS (a browser's IdP sign-in, one click). `{origin}/start?acs={url}` is the IdP's own
   * start of an IdP-initiated sign-in: the same page, its response unsolicited (no AuthnRequest's `id`). `{origin}/slo`
   * is its single logout, which answers an SP's LogoutRequest with Success.
   */
  async serve(respond: (request: AuthnRequestSeen | Unsolicited) => string): Promise<string> {
    this.server = createServer((incoming, outgoing) => {
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/slo') {
        // The SP's LogoutRequest, answered at once: back to the SP's single logout (its entity id's sibling), Success.
        const request = this.readLogoutRequest(url.href);
        this.logoutsSeen.push(request.nameId ?? '');
        return outgoing.writeHead(303, { location: this.logoutResponse(request.issuer!.replace(/\/metadata$/, '/slo'), request.id) }).end();
      }
      const acs = url.searchParams.get('acs');
      const seen: AuthnRequestSeen | Unsolicited | undefined =
        url.pathname === '/sso' ? this.readRequest(url.href) : url.pathname === '/start' && acs !== null ? { acsUrl: acs, relayState: null } : undefined;
      if (seen === undefined) return outgoing.writeHead(404).end();
      const page =
        `<!doctype html><html lang="en"><title>Test IdP</title><form method="post" action="${escape(seen.acsUrl)}">` +
        `<input type="hidden" name="SAMLResponse" value="${escape(respond(seen))}">` +
        (seen.relayState === null ? '' : `<input type="hidden" name="RelayState" value="${escape(seen.relayState)}">`) +
        `<button type="submit">Continue as the test IdP's user</button></form></html>`;
      outgoing.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/sso`;
  }

  async close(): Promise<void> {
    if (this.server !== undefined) await new Promise((resolve) => this.server!.close(resolve));
  }
}
