import { createHash } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { SAML, SamlStatusError, ValidateInResponseTo, type CacheItem, type CacheProvider, type Profile } from '@node-saml/node-saml';
// node-saml's own parsing and decryption (not in its index): the key probe reads the response as node-saml will.
import { decryptXml, parseDomFromString, xpath } from '@node-saml/node-saml/lib/xml.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { SecretBox } from '../../auth/client-secrets.ts';
import { AuthProvider } from '../../db/entities/index.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { GatehouseError } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { TENANT_PATH_PREFIX } from '../domains/surfaces.ts';
import { email as emailAddress } from '../validate.ts';
import { samlSpKey, type SamlSpKeys } from './saml-keys.ts';
import type { Reauthentication } from './reauthentication.ts';

/** The service as a SAML 2.0 SP per `saml` auth provider: AuthnRequests by HTTP-Redirect, responses by HTTP-POST, each
 *  request answerable once (InResponseTo) and each assertion usable once. */

export interface SamlProviderConfig {
  readonly entityId: string;
  readonly ssoUrl: string;
  readonly certificate: string;
  readonly signRequests: boolean;
  readonly emailAttribute: string;
  readonly idpInitiatedLoginUrl: string | null;
  /** Absent from providers saved before single logout: as null. */
  readonly sloUrl?: string | null;
  readonly allowSignup: boolean;
}

export interface SamlProvider {
  readonly id: string;
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly name: string;
  readonly enabled: boolean;
  readonly config: SamlProviderConfig;
}

/** How far the IdP's clock may be from ours, either way: NotBefore, NotOnOrAfter and IssueInstant. */
const CLOCK_SKEW_MS = 60_000;
/** How long after its IssueInstant an assertion is accepted (and so how long its id is remembered, with the skew). */
const MAX_ASSERTION_AGE_MS = 5 * 60_000;
const MAX_ASSERTION_ID_LENGTH = 256;
const MAX_NAME_ID_LENGTH = 1024;
/** How long an AuthnRequest waits for its response: about as long as a hosted sign-in's interaction lives. */
const REQUEST_TTL_MS = 30 * 60_000;

/** `metadataUrl` is also the SP's entity id, the audience assertions must name. A tenant's provider is under its path
 *  surface by tenant id: a slug may change, the IdP's registration must not. */
export function samlUrls(publicUrl: string, provider: { readonly id: string; readonly tenantId: string | null }) {
  const base = `${publicUrl}${provider.tenantId === null ? '' : `${TENANT_PATH_PREFIX}/${provider.tenantId}`}/saml/${provider.id}`;
  return { acsUrl: `${base}/acs`, metadataUrl: `${base}/metadata`, sloUrl: `${base}/slo` };
}

/** A provider's endpoints as one surface serves them: where the messages it receives must say they were sent. */
export interface SamlEndpoints {
  readonly acsUrl: string;
  readonly sloUrl: string;
}

/** At the root of a verified custom domain: an IdP-initiated response posted there leaves its proof cookie on the domain.
 *  SP-initiated sign-ins keep naming samlUrls' `acsUrl`. */
export const domainSamlEndpoints = (origin: string, providerId: string): SamlEndpoints => samlUrls(origin, { id: providerId, tenantId: null });

/** Read with filters off: a SAML URL names no application, and the provider id is unique. */
export async function findSamlProvider(orm: MikroORM, providerId: string): Promise<SamlProvider | null> {
  if (!isUuid(providerId)) return null;
  const provider = await orm.em.fork().findOne(AuthProvider, { id: providerId, type: 'saml' }, { filters: false });
  if (provider === null) return null;
  return {
    id: provider.id,
    applicationId: provider.applicationId,
    tenantId: provider.tenantId ?? null,
    name: provider.name,
    enabled: provider.enabled,
    config: provider.config as unknown as SamlProviderConfig,
  };
}

export interface SamlDeps {
  readonly orm: MikroORM;
  /** Seals the SP's private keys (saml-keys.ts). */
  readonly storedSecrets: SecretBox;
  readonly publicUrl: string;
}

export interface SamlIdentity {
  readonly providerId: string;
  /** The IdP it was checked against (samlTrustOf): taken only while the provider still trusts that IdP. */
  readonly trust: string;
  readonly email: string;
  /** What single logout names the user by, both ways (saml-logout.ts). */
  readonly nameId: string | null;
  readonly nameIdFormat: string | null;
  /** The IdP's sign-in (ms): its assertion's oldest AuthnInstant; null: a statement stated none. An unsolicited identity
   *  is held to the fresh sign-in of the request it completes by it (answersReauthentication). */
  readonly authnInstant: number | null;
}

/** The IdP a provider trusts, its entityId and certificate, as one value: an identity proven and waiting (up to 10 min)
 *  is refused once the provider is moved to another IdP or key, as an OAuth answer is once its issuer changes. */
export const samlTrustOf = (config: Pick<SamlProviderConfig, 'entityId' | 'certificate'>): string =>
  createHash('sha256').update(JSON.stringify([config.entityId, config.certificate])).digest('base64url');

export interface SamlRequestRecord {
  readonly interactionUid: string;
  readonly clientId: string;
  readonly returnOrigin: string;
}

/** What an AuthnRequest asked of the IdP's sign-in, kept with it: its answer's AuthnInstant is held to it. */
interface AskedSignIn {
  readonly forceAuthn: boolean;
  /** Seconds, as the client sent it; null: none. */
  readonly maxAge: number | null;
}

/** node-saml's request cache: each row is read and deleted when its response comes back, so each is answered once. */
class RequestRecords implements CacheProvider {
  private readonly found = new Map<string, SamlRequestRecord>();
  /** Of each request found: what it asked, and when it was sent (our clock). */
  private readonly asked = new Map<string, AskedSignIn & { readonly sentAt: number }>();
  private readonly orm: MikroORM;
  private readonly provider: SamlProvider;
  private readonly pending: (SamlRequestRecord & AskedSignIn) | undefined;
  /** A response named a request that is not (or no longer) open: unknown, expired, or answered already. */
  missed = false;

  constructor(orm: MikroORM, provider: SamlProvider, pending?: SamlRequestRecord & AskedSignIn) {
    this.orm = orm;
    this.provider = provider;
    this.pending = pending;
  }

  async saveAsync(key: string, value: string): Promise<CacheItem | null> {
    if (this.pending === undefined) throw new Error('an AuthnRequest needs the sign-in it is for');
    const connection = this.orm.em.getConnection();
    const now = Date.now();
    const { interactionUid, clientId, returnOrigin, forceAuthn, maxAge } = this.pending;
    await connection.execute(
      `insert into saml_request (application_id, provider_id, id, interaction_uid, client_id, return_origin, force_authn, max_age, created_at, expires_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      // A max_age past the request's life bounds nothing its sending time does not (and fits the column).
      [this.provider.applicationId, this.provider.id, key, interactionUid, clientId, returnOrigin, forceAuthn, maxAge === null ? null : Math.min(maxAge, REQUEST_TTL_MS / 1000), new Date(now), new Date(now + REQUEST_TTL_MS)],
    );
    return { value, createdAt: now };
  }

  async getAsync(key: string): Promise<string | null> {
    const [row] = await executeOwned<{ interaction_uid: string; client_id: string; return_origin: string; force_authn: boolean; max_age: number | null; created_at: Date }[]>(
      this.orm.em.getConnection(),
      this.provider.applicationId,
      'select interaction_uid, client_id, return_origin, force_authn, max_age, created_at from saml_request where @owner and provider_id = ? and id = ? and expires_at > ?',
      [this.provider.id, key, new Date()],
    );
    if (row === undefined) {
      this.missed = true;
      return null;
    }
    this.found.set(key, { interactionUid: row.interaction_uid, clientId: row.client_id, returnOrigin: row.return_origin });
    this.asked.set(key, { forceAuthn: row.force_authn, maxAge: row.max_age, sentAt: new Date(row.created_at).getTime() });
    return new Date(row.created_at).toISOString();
  }

  async removeAsync(key: string | null): Promise<string | null> {
    if (key === null) return null;
    await executeOwned(this.orm.em.getConnection(), this.provider.applicationId, 'delete from saml_request where @owner and provider_id = ? and id = ?', [this.provider.id, key]);
    return key;
  }

  requestOf(inResponseTo: string | undefined): SamlRequestRecord | null {
    return inResponseTo === undefined ? null : (this.found.get(inResponseTo) ?? null);
  }

  askedOf(inResponseTo: string | undefined): (AskedSignIn & { readonly sentAt: number }) | null {
    return inResponseTo === undefined ? null : (this.asked.get(inResponseTo) ?? null);
  }

  /** For the failure's record (its client), when it was one of ours. */
  named(): SamlRequestRecord | null {
    return [...this.found.values()][0] ?? null;
  }
}

interface ServiceProviderOptions {
  /** The current key unless told otherwise. */
  readonly decryptionPvk?: string;
  readonly validateInResponseTo?: ValidateInResponseTo;
  /** The AuthnRequest's `ForceAuthn`: the IdP signs the user in afresh, not from its session. */
  readonly forceAuthn?: boolean;
}

/** Decrypts assertions with `decryptionPvk`; signs AuthnRequests (RSA-SHA256) with the current key when `signRequests` asks. */
function serviceProvider(deps: SamlDeps, provider: SamlProvider, cacheProvider: CacheProvider, keys: SamlSpKeys, options: ServiceProviderOptions = {}): SAML {
  const { decryptionPvk = keys.privateKey, validateInResponseTo = ValidateInResponseTo.ifPresent, forceAuthn = false } = options;
  const { acsUrl, metadataUrl, sloUrl } = samlUrls(deps.publicUrl, provider);
  const idpSloUrl = provider.config.sloUrl ?? null;
  return new SAML({
    callbackUrl: acsUrl,
    issuer: metadataUrl,
    audience: metadataUrl,
    entryPoint: provider.config.ssoUrl,
    idpCert: provider.config.certificate,
    idpIssuer: provider.config.entityId,
    // Single logout where the IdP has one: the metadata names our endpoint, and LogoutResponses go to the IdP's.
    ...(idpSloUrl === null ? {} : { logoutUrl: idpSloUrl, logoutCallbackUrl: sloUrl }),
    decryptionPvk,
    ...(provider.config.signRequests ? { privateKey: keys.privateKey, signatureAlgorithm: 'sha256' as const } : {}),
    // A signed response or a signed assertion: either covers the assertion (node-saml refuses a document with neither).
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
    // IdP-initiated responses answer no request; a response that names one must answer one of ours, once.
    validateInResponseTo,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider,
    // The e-mail is read from an attribute (or an e-mail NameID): any NameID format the IdP has will do.
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    forceAuthn,
  });
}

/** Every certificate of the provider's keys, current first. On a custom domain the domain's ACS comes first, as the
 *  default (IdP-initiated responses), then `acsUrl` (the one SP-initiated requests name): the IdP accepts both. */
export async function samlMetadata(deps: SamlDeps, provider: SamlProvider, domain?: SamlEndpoints): Promise<string> {
  const keys = await samlSpKey(deps.orm, deps.storedSecrets, provider);
  const certificates = [keys.certificate, ...(keys.previous === null ? [] : [keys.previous.certificate])];
  const sp = serviceProvider(deps, provider, new RequestRecords(deps.orm, provider), keys);
  const metadata = sp.generateServiceProviderMetadata(keys.certificate, provider.config.signRequests ? certificates : null);
  const singleLogout = (provider.config.sloUrl ?? null) !== null;
  if (domain === undefined && keys.previous === null && !singleLogout) return metadata;
  const document = new DOMParser().parseFromString(metadata, 'text/xml');
  if (singleLogout) {
    // node-saml offers the HTTP-POST binding; the endpoint takes the HTTP-Redirect one too, which IdPs use most.
    const post = document.getElementsByTagName('SingleLogoutService')[0]!;
    const redirect = post.cloneNode(true) as typeof post;
    redirect.setAttribute('Binding', 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect');
    post.parentNode!.insertBefore(redirect, post);
    // An IdP set up from a custom domain's metadata sends its LogoutRequests there, naming that endpoint.
    if (domain !== undefined) for (const service of [post, redirect]) service.setAttribute('Location', domain.sloUrl);
  }
  if (keys.previous !== null) {
    // node-saml publishes one encryption certificate: the previous one gets a copy of its KeyDescriptor, after it.
    const encryption = Array.from(document.getElementsByTagName('KeyDescriptor')).find((descriptor) => descriptor.getAttribute('use') === 'encryption')!;
    const previous = encryption.cloneNode(true) as typeof encryption;
    previous.getElementsByTagName('ds:X509Certificate')[0]!.textContent = pemBody(keys.previous.certificate);
    encryption.parentNode!.insertBefore(previous, encryption.nextSibling);
  }
  if (domain !== undefined) {
    const acs = document.getElementsByTagName('AssertionConsumerService')[0]!;
    const requested = acs.cloneNode(true) as typeof acs;
    acs.setAttribute('Location', domain.acsUrl);
    requested.setAttribute('index', '2');
    requested.removeAttribute('isDefault');
    acs.parentNode!.insertBefore(requested, acs.nextSibling);
  }
  return new XMLSerializer().serializeToString(document);
}

/** A PEM's base64, as an X509Certificate element holds it. */
const pemBody = (pem: string): string => pem.replace(/-----[^-]+-----|\s/g, '');

/** The key that opens the response's EncryptedAssertion (node-saml takes one: during a rotation's grace, current or
 *  previous; no retry after node-saml fails, which consumes the request), and the assertion it opens to. */
async function decryptionOf(keys: SamlSpKeys, samlResponse: string): Promise<{ readonly key: string; readonly assertion: string | null }> {
  let encrypted: string | undefined;
  try {
    const document = await parseDomFromString(Buffer.from(samlResponse, 'base64').toString('utf8'));
    const found = xpath.selectElements(document, "/*[local-name()='Response']/*[local-name()='EncryptedAssertion']");
    encrypted = found.length === 1 ? new XMLSerializer().serializeToString(found[0]!) : undefined;
  } catch {
    // Not a document node-saml reads either: it refuses it with its own reason.
  }
  if (encrypted === undefined) return { key: keys.privateKey, assertion: null };
  for (const key of [keys.privateKey, ...(keys.previous === null ? [] : [keys.previous.privateKey])]) {
    try {
      return { key, assertion: await decryptXml(encrypted, key) };
    } catch {
      // Encrypted to another key: the next one.
    }
  }
  return { key: keys.privateKey, assertion: null };
}

/** RelayState is the hosted sign-in's uid. SAML has no `max_age`: `ForceAuthn` is the one way to ask for a sign-in within
 *  it, so a request naming one asks for a fresh sign-in too. */
export async function samlSignInUrl(deps: SamlDeps, provider: SamlProvider, pending: SamlRequestRecord, reauthentication: Reauthentication): Promise<string> {
  const keys = await samlSpKey(deps.orm, deps.storedSecrets, provider);
  const forceAuthn = reauthentication.fresh || reauthentication.maxAge !== undefined;
  const asked = { ...pending, forceAuthn, maxAge: reauthentication.maxAge ?? null };
  return serviceProvider(deps, provider, new RequestRecords(deps.orm, provider, asked), keys, { forceAuthn }).getAuthorizeUrlAsync(pending.interactionUid, undefined, {});
}

/** `malformed_response`: not a SAML response at all (no XML, another root, past XML_LIMITS), read no further.
 *  `idp_refused`: a status other than Success, answering an open request of ours (its user cancelled, or failed there). */
export type SamlResponseFailure = 'malformed_response' | 'invalid_assertion' | 'replayed_assertion' | 'no_email' | 'idp_refused';

/** A response with an encrypted assertion, certificates and a few hundred attributes (Entra ID: 150 groups at most) is
 *  tens of kilobytes; base64 and form encoding add about half. */
export const SAML_BODY_LIMIT_BYTES = 256 * 1024;

/**
 * Past any real message, since xmldom has no depth or size limit and node-saml's XPath library orders node sets by
 * walking siblings (its time grows with the square of an element's children: 4,000 beside a signed assertion, 16 KB,
 * took seconds, 46,000 minutes). `depth`: a response's deepest path, an encrypted assertion's key, is about a dozen
 * elements. `nodes`: elements, attributes (namespace declarations too), comments, CDATA sections and processing
 * instructions; a response with Entra ID's 150 groups, each value typed, holds about 700. `children`: an element's.
 */
export const XML_LIMITS = { depth: 48, nodes: 2_000, children: 500 } as const;
export type XmlLimits = Readonly<Record<keyof typeof XML_LIMITS, number>>;
const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';

/** The root start tag, or null past a limit, with a DOCTYPE or two roots: one linear pass. */
export function shallowRootTag(xml: string, limits: XmlLimits = XML_LIMITS): string | null {
  let depth = 0;
  let nodes = 0;
  // Children of the open element at each depth (0: the document's).
  const children = [0];
  const counted = (more: number) => (nodes += more) <= limits.nodes && (children[depth] = (children[depth] ?? 0) + 1) <= limits.children;
  let root: string | null = null;
  let at = xml.indexOf('<');
  while (at !== -1) {
    if (xml.startsWith('<!--', at) || xml.startsWith('<![CDATA[', at) || xml.startsWith('<?', at)) {
      const close = xml.startsWith('<!--', at) ? '-->' : xml.startsWith('<?', at) ? '?>' : ']]>';
      const end = xml.indexOf(close, at + 2);
      if (end === -1 || !counted(1)) return null;
      at = xml.indexOf('<', end + close.length);
      continue;
    }
    if (xml[at + 1] === '!') return null;
    let end = at + 1;
    let attributes = 0;
    for (let quote: string | null = null; end < xml.length; end += 1) {
      const character = xml[end];
      if (quote !== null) quote = character === quote ? null : quote;
      else if (character === '"' || character === "'") quote = character;
      else if (character === '=') attributes += 1;
      else if (character === '>') break;
    }
    if (end >= xml.length) return null;
    if (xml[at + 1] === '/') {
      depth -= 1;
      if (depth < 0) return null;
    } else {
      if (depth === 0 && root !== null) return null;
      if (root === null) root = xml.slice(at, end + 1);
      if (!counted(1 + attributes)) return null;
      if (xml[end - 1] !== '/') {
        if ((depth += 1) > limits.depth) return null;
        children[depth] = 0;
      }
    }
    at = xml.indexOf('<', end + 1);
  }
  return depth === 0 ? root : null;
}

function looksLikeResponse(xml: string): boolean {
  const root = shallowRootTag(xml);
  const name = root === null ? null : /^<(?:([A-Za-z_][\w.-]*):)?Response[\s/>]/.exec(root);
  if (root === null || name === null) return false;
  const prefix = name[1] === undefined ? '' : `:${name[1].replaceAll('.', '\\.')}`;
  return new RegExp(`\\sxmlns${prefix}\\s*=\\s*["']([^"']*)["']`).exec(root)?.[1] === PROTOCOL_NS;
}

export type SamlResponseOutcome =
  | { readonly ok: true; readonly identity: SamlIdentity; readonly request: SamlRequestRecord | null }
  | { readonly ok: false; readonly reason: SamlResponseFailure; readonly detail: string; readonly request: SamlRequestRecord | null };

/**
 * Besides node-saml's checks (signature, issuer, audience, validity window): a bearer confirmation for this ACS valid now,
 * the Destination this ACS, the assertion at most MAX_ASSERTION_AGE_MS old, InResponseTo (if any) an open request of
 * ours answered once, the IdP's sign-in (AuthnInstant) since a request asking ForceAuthn, and the assertion id never
 * seen before.
 */
export async function consumeSamlResponse(deps: SamlDeps, provider: SamlProvider, acsUrl: string, samlResponse: string | null | undefined): Promise<SamlResponseOutcome> {
  const { orm } = deps;
  const records = new RequestRecords(orm, provider);
  const malformed = { ok: false, reason: 'malformed_response', detail: 'not a SAML response, or nested too deep or too large', request: null } as const;
  if (typeof samlResponse !== 'string' || !looksLikeResponse(Buffer.from(samlResponse, 'base64').toString('utf8'))) return malformed;
  let profile: Profile | null;
  try {
    const keys = await samlSpKey(orm, deps.storedSecrets, provider);
    const decryption = await decryptionOf(keys, samlResponse);
    // Anyone may encrypt to our published certificate: node-saml parses the plaintext before any signature is checked.
    if (decryption.assertion !== null && shallowRootTag(decryption.assertion) === null) return malformed;
    const sp = serviceProvider(deps, provider, records, keys, { decryptionPvk: decryption.key });
    ({ profile } = await sp.validatePostResponseAsync({ SAMLResponse: samlResponse }));
    if (profile === null) throw new Error('not a sign-in response');
  } catch (error) {
    // Unsigned, as IdPs send it: taken for the IdP's word only when it answers an open request of ours.
    const answered = records.named();
    if (error instanceof SamlStatusError && answered !== null) return { ok: false, reason: 'idp_refused', detail: error.message, request: answered };
    if (records.missed && (await usedBefore(deps, provider, samlResponse))) {
      return { ok: false, reason: 'replayed_assertion', detail: 'the assertion was used before', request: null };
    }
    return { ok: false, reason: 'invalid_assertion', detail: (error as Error).message, request: records.named() };
  }
  const request = records.requestOf(profile.inResponseTo as string | undefined);
  const refused = (reason: SamlResponseFailure, detail: string): SamlResponseOutcome => ({ ok: false, reason, detail, request });
  if (profile.issuer !== provider.config.entityId) return refused('invalid_assertion', 'the assertion’s issuer is not the provider’s entityId');
  const response = new DOMParser().parseFromString(profile.getSamlResponseXml?.() ?? '<none/>', 'text/xml').documentElement;
  const destination = response?.getAttribute('Destination');
  if (destination !== null && destination !== undefined && destination !== '' && destination !== acsUrl) {
    return refused('invalid_assertion', 'the response’s Destination is not this ACS');
  }
  const assertion = (profile.getAssertion?.() ?? {}) as { Assertion?: AssertionXml };
  const now = Date.now();
  if (!confirmedFor(assertion.Assertion, acsUrl, now, profile.inResponseTo as string | undefined)) return refused('invalid_assertion', 'no bearer confirmation of the assertion is for this ACS and valid now');
  const id = assertion.Assertion?.$?.ID;
  const issued = Date.parse(assertion.Assertion?.$?.IssueInstant ?? '');
  if (id === undefined || Number.isNaN(issued)) return refused('invalid_assertion', 'the assertion has no ID or IssueInstant');
  // Both are kept in unique keys, which take no few kilobytes; a persistent NameID has at most 256 (SAML core 8.3.7).
  if (id.length > MAX_ASSERTION_ID_LENGTH) return refused('invalid_assertion', `the assertion's ID is over ${MAX_ASSERTION_ID_LENGTH} characters`);
  if ((profile.nameID?.length ?? 0) > MAX_NAME_ID_LENGTH) return refused('invalid_assertion', `the NameID is over ${MAX_NAME_ID_LENGTH} characters`);
  // node-saml bounds the age only backwards (and NotBefore with the skew): a later IssueInstant would stretch it.
  const latest = now + CLOCK_SKEW_MS;
  if (issued > latest || Date.parse(response?.getAttribute('IssueInstant') ?? '') > latest) return refused('invalid_assertion', 'issued in the future');
  // node-saml bounds the age only through Conditions' times, which are optional; its id is remembered no longer than this.
  if (now >= issued + MAX_ASSERTION_AGE_MS + CLOCK_SKEW_MS) return refused('invalid_assertion', 'issued too long ago');
  const asked = records.askedOf(profile.inResponseTo as string | undefined);
  const authnInstant = authnInstantOf(assertion.Assertion);
  if (asked?.forceAuthn === true && !authenticatedSince(authnInstant, { since: asked.sentAt, maxAge: asked.maxAge }, now)) {
    return refused('invalid_assertion', 'the IdP’s sign-in (AuthnInstant) is older than the fresh one asked for, or not stated');
  }
  if (!(await usedOnce(orm, provider, id, new Date(issued + MAX_ASSERTION_AGE_MS + CLOCK_SKEW_MS)))) {
    return refused('replayed_assertion', 'the assertion was used before');
  }
  const email = assertedEmail(profile, provider.config.emailAttribute);
  if (email === null) return refused('no_email', `the assertion has no e-mail address in ${provider.config.emailAttribute} or an e-mail NameID`);
  const identity = { providerId: provider.id, trust: samlTrustOf(provider.config), email, nameId: profile.nameID ?? null, nameIdFormat: profile.nameIDFormat ?? null, authnInstant };
  return { ok: true, identity, request };
}

interface AssertionXml {
  $?: { ID?: string; IssueInstant?: string };
  AuthnStatement?: { $?: { AuthnInstant?: string } }[];
  Subject?: { SubjectConfirmation?: { $?: { Method?: string }; SubjectConfirmationData?: { $?: { Recipient?: string; NotBefore?: string; NotOnOrAfter?: string; InResponseTo?: string } }[] }[] }[];
}

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/** The oldest AuthnStatement's AuthnInstant. Each must state one (SAML core 2.7.2): null when one does not, or there is
 *  none, which proves no sign-in at all. */
function authnInstantOf(assertion: AssertionXml | undefined): number | null {
  const instants = (assertion?.AuthnStatement ?? []).map((statement) => Date.parse(statement.$?.AuthnInstant ?? ''));
  return instants.length === 0 || instants.some(Number.isNaN) ? null : Math.min(...instants);
}

/** Whether the IdP signed the user in since `since` (null: any time) and within `maxAge` seconds, with an ID token's
 *  skew: an IdP that ignores ForceAuthn, or an unsolicited assertion, may answer from an old session. */
function authenticatedSince(authnInstant: number | null, asked: { readonly since: number | null; readonly maxAge: number | null }, now: number): boolean {
  const earliest = Math.max(asked.since ?? -Infinity, asked.maxAge === null ? -Infinity : now - asked.maxAge * 1000) - CLOCK_SKEW_MS;
  return typeof authnInstant === 'number' && authnInstant >= earliest;
}

/** Whether an unsolicited identity (the IdP was asked nothing) meets the fresh sign-in or max_age of a request begun at
 *  `requestedAt` (ms). */
export function answersReauthentication(identity: SamlIdentity, reauthentication: Reauthentication, requestedAt: number, now = Date.now()): boolean {
  if (!reauthentication.fresh && reauthentication.maxAge === undefined) return true;
  return authenticatedSince(identity.authnInstant, { since: reauthentication.fresh ? requestedAt : null, maxAge: reauthentication.maxAge ?? null }, now);
}

/**
 * Whether a bearer confirmation names this ACS as its Recipient, is valid at `now` and names the response's InResponseTo,
 * or none when it names none (SAML profiles 4.1.4.2). node-saml checks their times only for a response naming
 * InResponseTo, and their InResponseTo not at all then: an assertion made for one browser's request, re-wrapped as
 * unsolicited, would serve anyone; and an unsolicited one wrapped in a response (unsigned) naming a browser's open
 * request would sign it in without its "Continue as …?".
 */
function confirmedFor(assertion: AssertionXml | undefined, acsUrl: string, now: number, inResponseTo: string | undefined): boolean {
  const validNow = (notBefore: string | undefined, notOnOrAfter: string | undefined) =>
    now - CLOCK_SKEW_MS < Date.parse(notOnOrAfter ?? '') && !(Date.parse(notBefore ?? '') > now + CLOCK_SKEW_MS);
  return (assertion?.Subject?.[0]?.SubjectConfirmation ?? [])
    .filter((confirmation) => confirmation.$?.Method === BEARER)
    .flatMap((confirmation) => confirmation.SubjectConfirmationData ?? [])
    .some(({ $: data }) => data?.Recipient === acsUrl && validNow(data.NotBefore, data.NotOnOrAfter) && data.InResponseTo === inResponseTo);
}

/** A response naming no open request: its request's first use consumed it, so node-saml refuses a replay before any
 *  other check. A replay when, all other checks passing, its assertion was used before; a forged one stays invalid.
 *  Read only: the refusal stands either way. */
async function usedBefore(deps: SamlDeps, provider: SamlProvider, samlResponse: string): Promise<boolean> {
  try {
    const keys = await samlSpKey(deps.orm, deps.storedSecrets, provider);
    const { key } = await decryptionOf(keys, samlResponse);
    const sp = serviceProvider(deps, provider, new RequestRecords(deps.orm, provider), keys, { decryptionPvk: key, validateInResponseTo: ValidateInResponseTo.never });
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: samlResponse });
    const id = ((profile?.getAssertion?.() ?? {}) as { Assertion?: AssertionXml }).Assertion?.$?.ID;
    if (id === undefined || profile?.issuer !== provider.config.entityId) return false;
    const [used] = await executeOwned<unknown[]>(
      deps.orm.em.getConnection(),
      provider.applicationId,
      'select 1 from saml_assertion where @owner and provider_id = ? and id = ? and expires_at > now()',
      [provider.id, id],
    );
    return used !== undefined;
  } catch {
    return false;
  }
}

/** False when already recorded (a replay, on any instance): assertion and LogoutRequest ids, which an IdP never shares.
 *  Kept past their message's validity, then swept (expired-rows.ts). */
async function usedOnce(orm: MikroORM, provider: SamlProvider, id: string, expiresAt: Date): Promise<boolean> {
  const connection = orm.em.getConnection();
  const inserted = await connection.execute<{ id: string }[]>(
    'insert into saml_assertion (application_id, provider_id, id, expires_at) values (?, ?, ?, ?) on conflict do nothing returning id',
    [provider.applicationId, provider.id, id, expiresAt],
  );
  return inserted.length === 1;
}

/** The e-mail of the provider's `emailAttribute`, else the NameID when it is one; null when neither is an address. */
/** A NameID is an address only in the formats that may carry one: a persistent or transient one is an opaque id the IdP
 *  chose, which may look like someone's address. */
const EMAIL_NAME_ID_FORMATS: ReadonlySet<string | undefined> = new Set([
  undefined,
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
]);

function assertedEmail(profile: Profile, attribute: string): string | null {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const value = Object.hasOwn(attributes, attribute) ? attributes[attribute] : undefined;
  const nameId = EMAIL_NAME_ID_FORMATS.has(profile.nameIDFormat) ? profile.nameID : undefined;
  for (const candidate of [Array.isArray(value) ? value[0] : value, nameId]) {
    if (typeof candidate !== 'string') continue;
    try {
      return emailAddress('email', candidate.trim());
    } catch (error) {
      if (!(error instanceof GatehouseError)) throw error;
    }
  }
  return null;
}

/** An IdP's LogoutRequest as either binding carries it: the redirect's query (and its raw string, which the signature covers) or the POST's form. */
export type SamlLogoutMessage =
  | { readonly binding: 'redirect'; readonly query: Readonly<Record<string, unknown>>; readonly rawQuery: string }
  | { readonly binding: 'post'; readonly form: Readonly<Record<string, unknown>> };

export type SamlLogoutRequest =
  | { readonly ok: true; readonly nameId: string; readonly answer: (known: boolean) => Promise<string> }
  | { readonly ok: false; readonly detail: string };

/** A LogoutRequest or LogoutResponse is a few kilobytes; a larger inflation is refused. */
const MAX_LOGOUT_MESSAGE_BYTES = 256 * 1024;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Besides node-saml's checks (signature, issuer, validity): a signature is required in both bindings (node-saml lets an
 *  unsigned redirect through), the Destination (if any) is `sloUrl`, and the request is recent and used once. `answer`
 *  is the LogoutResponse's redirect URL: Success, or UnknownPrincipal when no sign-in of that NameID is known. */
export async function readSamlLogoutRequest(deps: SamlDeps, provider: SamlProvider, sloUrl: string, message: SamlLogoutMessage): Promise<SamlLogoutRequest> {
  const fields = message.binding === 'redirect' ? message.query : message.form;
  const encoded = text(fields['SAMLRequest']);
  const relayState = text(fields['RelayState']);
  try {
    if (encoded === undefined) throw new Error('no SAMLRequest');
    const keys = await samlSpKey(deps.orm, deps.storedSecrets, provider);
    const sp = serviceProvider(deps, provider, new RequestRecords(deps.orm, provider), keys);
    let xml: string;
    let validated: { profile: Profile | null };
    if (message.binding === 'redirect') {
      if (text(fields['Signature']) === undefined || text(fields['SigAlg']) === undefined) throw new Error('the LogoutRequest is not signed');
      // Inflated here first, bounded, before node-saml inflates it again.
      xml = inflateRawSync(Buffer.from(encoded, 'base64'), { maxOutputLength: MAX_LOGOUT_MESSAGE_BYTES }).toString('utf8');
      if (shallowRootTag(xml) === null) throw new Error('not an XML document, or nested too deep or too large');
      validated = await sp.validateRedirectAsync(fields as Record<string, string>, message.rawQuery);
    } else {
      xml = Buffer.from(encoded, 'base64').toString('utf8');
      if (shallowRootTag(xml) === null) throw new Error('not an XML document, or nested too deep or too large');
      validated = await sp.validatePostRequestAsync({ SAMLRequest: encoded });
    }
    const request = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
    if (request?.localName !== 'LogoutRequest') throw new Error('not a LogoutRequest');
    const destination = request.getAttribute('Destination');
    if (destination !== null && destination !== '' && destination !== sloUrl) throw new Error('the LogoutRequest’s Destination is not this endpoint');
    const id = request.getAttribute('ID') ?? '';
    const issued = Date.parse(request.getAttribute('IssueInstant') ?? '');
    if (id === '' || Number.isNaN(issued)) throw new Error('the LogoutRequest has no ID or IssueInstant');
    if (Math.abs(Date.now() - issued) > MAX_ASSERTION_AGE_MS + CLOCK_SKEW_MS) throw new Error('the LogoutRequest is not recent');
    if (!(await usedOnce(deps.orm, provider, id, new Date(issued + MAX_ASSERTION_AGE_MS + CLOCK_SKEW_MS)))) throw new Error('the LogoutRequest was used before');
    // The request's own NameID child, as node-saml reads it: one inside the enveloped Signature is not signed.
    const nameId = validated.profile?.nameID?.trim() ?? '';
    if (nameId === '') throw new Error('the LogoutRequest names no NameID');
    return { ok: true, nameId, answer: (known) => sp.getLogoutResponseUrlAsync({ ID: id } as Profile, relayState ?? '', {}, known) };
  } catch (error) {
    return { ok: false, detail: (error as Error).message };
  }
}

const LOGOUT_TTL_MS = 10 * 60_000;

/** node-saml's cache for the LogoutRequests we send: each row keeps where the browser goes once the IdP answers. */
class LogoutRecords implements CacheProvider {
  private readonly orm: MikroORM;
  private readonly provider: SamlProvider;
  private readonly returnTo: string;

  constructor(orm: MikroORM, provider: SamlProvider, returnTo: string) {
    this.orm = orm;
    this.provider = provider;
    this.returnTo = returnTo;
  }

  async saveAsync(key: string, value: string): Promise<CacheItem | null> {
    await this.orm.em.getConnection().execute('insert into saml_logout (application_id, provider_id, id, return_to, expires_at) values (?, ?, ?, ?, ?)', [
      this.provider.applicationId,
      this.provider.id,
      key,
      this.returnTo,
      new Date(Date.now() + LOGOUT_TTL_MS),
    ]);
    return { value, createdAt: Date.now() };
  }

  getAsync(): Promise<string | null> {
    throw new Error('a LogoutResponse is read by finishSamlLogout');
  }

  removeAsync(): Promise<string | null> {
    throw new Error('a LogoutResponse is read by finishSamlLogout');
  }
}

/** The IdP's single logout URL with a LogoutRequest for the NameID a sign-in gave; `returnTo`: where its answer sends the browser. */
export async function samlLogoutUrl(deps: SamlDeps, provider: SamlProvider, subject: { nameId: string; nameIdFormat: string | null }, returnTo: string): Promise<string> {
  const keys = await samlSpKey(deps.orm, deps.storedSecrets, provider);
  const sp = serviceProvider(deps, provider, new LogoutRecords(deps.orm, provider, returnTo), keys);
  const user = { nameID: subject.nameId, ...(subject.nameIdFormat === null ? {} : { nameIDFormat: subject.nameIdFormat }) };
  return sp.getLogoutUrlAsync(user as Profile, '', {});
}

/** Where the IdP's LogoutResponse to one of our requests sends the browser, once (undefined: not ours). Signature and
 *  status are not checked: the sessions ended before the request went. */
export async function finishSamlLogout(deps: SamlDeps, provider: SamlProvider, message: SamlLogoutMessage): Promise<string | undefined> {
  const encoded = text((message.binding === 'redirect' ? message.query : message.form)['SAMLResponse']);
  if (encoded === undefined) return undefined;
  let inResponseTo: string | null | undefined;
  try {
    const bytes = Buffer.from(encoded, 'base64');
    const xml = message.binding === 'redirect' ? inflateRawSync(bytes, { maxOutputLength: MAX_LOGOUT_MESSAGE_BYTES }).toString('utf8') : bytes.toString('utf8');
    // Unsigned and unthrottled by redirect: a few hundred deflated bytes nest deep enough to hold xmldom (no depth limit).
    if (shallowRootTag(xml) === null) return undefined;
    const response = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
    inResponseTo = response?.localName === 'LogoutResponse' ? response.getAttribute('InResponseTo') : undefined;
  } catch {
    return undefined;
  }
  if (inResponseTo === null || inResponseTo === undefined || inResponseTo === '') return undefined;
  const [row] = await executeOwned<{ return_to: string }[]>(
    deps.orm.em.getConnection(),
    provider.applicationId,
    'delete from saml_logout where @owner and provider_id = ? and id = ? and expires_at > now() returning return_to',
    [provider.id, inResponseTo],
  );
  return row?.return_to;
}
