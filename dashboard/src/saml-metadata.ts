const METADATA = 'urn:oasis:names:tc:SAML:2.0:metadata';
const SIGNATURE = 'http://www.w3.org/2000/09/xmldsig#';
// The service sends its AuthnRequests by HTTP-Redirect (src/domain/sign-in/saml.ts).
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** A saml provider's settings read from its IdP's metadata document. */
export interface IdpSettings {
  readonly entityId: string;
  readonly ssoUrl: string;
  readonly certificate: string;
}

function pem(base64: string): string {
  const body = base64.replace(/\s+/g, '').match(/.{1,64}/g) ?? [];
  return ['-----BEGIN CERTIFICATE-----', ...body, '-----END CERTIFICATE-----'].join('\n');
}

/** The entity id, the HTTP-Redirect sign-in URL and the signing certificate of the IdP the XML describes; throws what it lacks. */
export function idpSettingsOf(xml: string): IdpSettings {
  const document = new DOMParser().parseFromString(xml, 'application/xml');
  if (document.getElementsByTagName('parsererror').length > 0) throw new Error('The metadata is not well-formed XML.');
  const entity = document.getElementsByTagNameNS(METADATA, 'EntityDescriptor')[0];
  const idp = entity?.getElementsByTagNameNS(METADATA, 'IDPSSODescriptor')[0];
  if (entity === undefined || idp === undefined) throw new Error('The metadata describes no identity provider (IDPSSODescriptor).');
  const services = [...idp.getElementsByTagNameNS(METADATA, 'SingleSignOnService')];
  const sso = services.find((service) => service.getAttribute('Binding') === REDIRECT_BINDING)?.getAttribute('Location');
  if (sso === null || sso === undefined) throw new Error('The metadata names no HTTP-Redirect SingleSignOnService.');
  // A KeyDescriptor without `use` serves both signing and encryption.
  const signing = [...idp.getElementsByTagNameNS(METADATA, 'KeyDescriptor')].find((key) => (key.getAttribute('use') ?? 'signing') === 'signing');
  const certificate = signing?.getElementsByTagNameNS(SIGNATURE, 'X509Certificate')[0]?.textContent;
  if (certificate === null || certificate === undefined) throw new Error('The metadata holds no signing certificate.');
  return { entityId: entity.getAttribute('entityID') ?? '', ssoUrl: sso, certificate: pem(certificate) };
}
