import { createPrivateKey, createPublicKey, generateKeyPair, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { MikroORM } from '@mikro-orm/postgresql';
import { AsnConvert } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  Certificate,
  Name,
  RelativeDistinguishedName,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from '@peculiar/asn1-x509';
import type { SecretBox } from '../../auth/client-secrets.ts';
import { executeOwned } from '../../db/owned-sql.ts';

/**
 * A `saml` provider's key pair as a service provider: its private key signs the AuthnRequests (`signRequests`) and
 * decrypts the assertions an IdP encrypts to it; its certificate is what the SP's metadata publishes for both. One per
 * provider, made at its first use and kept (`saml_sp_key`, the key sealed with the service's secret).
 */
export interface SamlSpKey {
  /** PKCS#8 PEM. */
  readonly privateKey: string;
  /** X.509 PEM, self-signed: IdPs trust it as published in the metadata, not through a chain. */
  readonly certificate: string;
}

/** How long the certificate says it is valid: IdPs that check the dates would refuse it after. */
const CERTIFICATE_YEARS = 10;
const COMMON_NAME = '2.5.4.3';
const SHA256_WITH_RSA = '1.2.840.113549.1.1.11';

const generateRsaKeyPair = promisify(generateKeyPair);

/** The provider's key pair: the one stored, else a new one, stored first by whichever instance comes first. */
export async function samlSpKey(orm: MikroORM, secrets: SecretBox, provider: { readonly id: string; readonly applicationId: string }): Promise<SamlSpKey> {
  const connection = orm.em.getConnection();
  const read = () =>
    executeOwned<{ private_key: string; certificate: string }[]>(connection, provider.applicationId, 'select private_key, certificate from saml_sp_key where @owner and provider_id = ?', [
      provider.id,
    ]);
  const stored = async () => {
    const [row] = await read();
    if (row === undefined) throw new Error(`the SAML provider ${provider.id} is gone`);
    return row;
  };
  let [row] = await read();
  if (row === undefined) {
    const made = await newKeyPair(spCommonName(provider));
    await connection.execute(
      `insert into saml_sp_key (application_id, provider_id, private_key, certificate, created_at) values (?, ?, ?, ?, now())
       on conflict (application_id, provider_id) do nothing`,
      [provider.applicationId, provider.id, secrets.encrypt(made.privateKey), made.certificate],
    );
    row = await stored();
  }
  const privateKey = secrets.decrypt(row.private_key);
  if (readable(row.certificate)) return { privateKey, certificate: row.certificate };
  // Earlier versions could store a serial with padding, which OpenSSL, and so most IdPs, cannot read: the same key is
  // certified again, and whichever instance comes first stores its certificate.
  const key = createPrivateKey(privateKey);
  await executeOwned(connection, provider.applicationId, 'update saml_sp_key set certificate = ? where @owner and provider_id = ? and certificate = ?', [
    selfSignedCertificate(spCommonName(provider), createPublicKey(key), key),
    provider.id,
    row.certificate,
  ]);
  return { privateKey, certificate: (await stored()).certificate };
}

const spCommonName = (provider: { readonly id: string }) => `Gatehouse SAML SP ${provider.id}`;

function readable(certificate: string): boolean {
  try {
    new X509Certificate(certificate);
    return true;
  } catch {
    return false;
  }
}

/** An RSA-2048 key (generated off the event loop) and its self-signed certificate naming `commonName`. */
async function newKeyPair(commonName: string): Promise<SamlSpKey> {
  const { publicKey, privateKey } = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
  return { privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), certificate: selfSignedCertificate(commonName, publicKey, privateKey) };
}

/**
 * A self-signed certificate naming `commonName`, its serial from `random` (16 bytes): positive (RFC 5280 4.1.2.2) and
 * of 16 bytes whatever they are, the first in 0x40-0x7f, since a leading zero byte before one under 0x80 is an INTEGER
 * encoded with padding, which OpenSSL refuses to read.
 */
export function selfSignedCertificate(commonName: string, publicKey: KeyObject, privateKey: KeyObject, random: Uint8Array = randomBytes(16)): string {
  const name = new Name([new RelativeDistinguishedName([new AttributeTypeAndValue({ type: COMMON_NAME, value: new AttributeValue({ utf8String: commonName }) })])]);
  const algorithm = new AlgorithmIdentifier({ algorithm: SHA256_WITH_RSA, parameters: null });
  const serial = Uint8Array.from(random);
  serial[0] = 0x40 | (serial[0]! & 0x3f);
  const notBefore = new Date();
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + CERTIFICATE_YEARS);
  const tbsCertificate = new TBSCertificate({
    version: Version.v3,
    serialNumber: serial.buffer,
    signature: algorithm,
    issuer: name,
    subject: name,
    validity: new Validity({ notBefore, notAfter }),
    subjectPublicKeyInfo: AsnConvert.parse(publicKey.export({ type: 'spki', format: 'der' }), SubjectPublicKeyInfo),
  });
  const signature = sign('sha256', Buffer.from(AsnConvert.serialize(tbsCertificate)), privateKey);
  return certificatePem(Buffer.from(AsnConvert.serialize(new Certificate({ tbsCertificate, signatureAlgorithm: algorithm, signatureValue: new Uint8Array(signature).buffer }))));
}

/** A DER certificate as PEM (RFC 7468): node's crypto reads certificates but writes none. */
export const certificatePem = (der: Buffer): string => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
