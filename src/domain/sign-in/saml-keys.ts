import { createHash, createPrivateKey, createPublicKey, generateKeyPair, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
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
import { executeOwned, type SqlRunner } from '../../db/owned-sql.ts';

/** A `saml` provider's SP key pair: signs AuthnRequests (`signRequests`) and decrypts assertions; its certificate is what
 *  the metadata publishes for both. One per provider, made at first use and kept until a rotation (`saml_sp_key`, the
 *  key sealed with the service's secret). */
export interface SamlSpKey {
  /** PKCS#8 PEM. */
  readonly privateKey: string;
  /** X.509 PEM, self-signed: IdPs trust it as published in the metadata, not through a chain. */
  readonly certificate: string;
}

/** The current key and, until `expiresAt`, the one a rotation replaced: still decrypting and published, for IdPs that
 *  encrypt to the certificate they read before. */
export interface SamlSpKeys extends SamlSpKey {
  readonly previous: (SamlSpKey & { readonly expiresAt: Date }) | null;
}

/** A provider's keys by their certificates (the private keys stay sealed in the row); no previous one past its end. */
export interface SamlSpCertificates {
  readonly certificate: string;
  readonly previousCertificate: string | null;
  readonly previousExpiresAt: Date | null;
}

/** What a rotation changed; `before` is null when the provider had no key yet. */
export interface SamlSpKeyRotation {
  readonly before: SamlSpCertificates | null;
  readonly after: SamlSpCertificates;
}

/** How long the certificate says it is valid: IdPs that check the dates would refuse it after. */
const CERTIFICATE_YEARS = 10;
const COMMON_NAME = '2.5.4.3';
const SHA256_WITH_RSA = '1.2.840.113549.1.1.11';

const generateRsaKeyPair = promisify(generateKeyPair);

interface KeyRow {
  private_key: string;
  certificate: string;
  previous_private_key: string | null;
  previous_certificate: string | null;
  previous_expires_at: Date | string | null;
}

const KEY_COLUMNS = 'private_key, certificate, previous_private_key, previous_certificate, previous_expires_at';

/** The stored keys, else a new one stored by whichever instance comes first; a previous key past its grace is cleared. */
export async function samlSpKey(
  orm: MikroORM,
  secrets: SecretBox,
  provider: { readonly id: string; readonly applicationId: string },
  now: Date = new Date(),
): Promise<SamlSpKeys> {
  const connection = orm.em.getConnection();
  const stored = async () => {
    const [row] = await executeOwned<KeyRow[]>(connection, provider.applicationId, `select ${KEY_COLUMNS} from saml_sp_key where @owner and provider_id = ?`, [provider.id]);
    return row;
  };
  let row = await stored();
  if (row === undefined) {
    const made = await newKeyPair(spCommonName(provider));
    await connection.execute(
      `insert into saml_sp_key (application_id, provider_id, private_key, certificate, created_at) values (?, ?, ?, ?, now())
       on conflict (application_id, provider_id) do nothing`,
      [provider.applicationId, provider.id, secrets.encrypt(made.privateKey), made.certificate],
    );
    row = await stored();
  }
  if (row !== undefined && !readable(row.certificate)) {
    // A stored serial with padding cannot be read by OpenSSL (and so by most IdPs): the same key is certified again, and
    // whichever instance comes first stores its certificate.
    const key = createPrivateKey(secrets.decrypt(row.private_key));
    await executeOwned(connection, provider.applicationId, 'update saml_sp_key set certificate = ? where @owner and provider_id = ? and certificate = ?', [
      selfSignedCertificate(spCommonName(provider), createPublicKey(key), key),
      provider.id,
      row.certificate,
    ]);
    row = await stored();
  }
  if (row === undefined) throw new Error(`the SAML provider ${provider.id} is gone`);
  const expiresAt = row.previous_expires_at === null ? null : new Date(row.previous_expires_at);
  const live = expiresAt !== null && expiresAt > now && row.previous_private_key !== null && row.previous_certificate !== null;
  if (expiresAt !== null && !live) {
    // Past its grace period the previous key is of no use: its sealed copy goes, unless a rotation since replaced it.
    await executeOwned(
      connection,
      provider.applicationId,
      `update saml_sp_key set previous_private_key = null, previous_certificate = null, previous_expires_at = null
        where @owner and provider_id = ? and previous_expires_at = ?`,
      [provider.id, expiresAt],
    );
  }
  return {
    privateKey: secrets.decrypt(row.private_key),
    certificate: row.certificate,
    previous: live ? { privateKey: secrets.decrypt(row.previous_private_key!), certificate: row.previous_certificate!, expiresAt } : null,
  };
}

/** A new key pair, current at once; the one it replaces is kept `graceSeconds` (0: not at all). On `em`'s transaction,
 *  the row held FOR UPDATE: concurrent rotations queue, and a first use racing it leaves its key as the previous one. */
export async function rotateSamlSpKey(
  em: SqlRunner,
  secrets: SecretBox,
  provider: { readonly id: string; readonly applicationId: string },
  graceSeconds: number,
  now: Date,
): Promise<SamlSpKeyRotation> {
  const made = await newKeyPair(spCommonName(provider));
  const sealed = secrets.encrypt(made.privateKey);
  const inserted = (await em.execute(
    `insert into saml_sp_key (application_id, provider_id, private_key, certificate, created_at) values (?, ?, ?, ?, ?)
     on conflict (application_id, provider_id) do nothing returning provider_id`,
    [provider.applicationId, provider.id, sealed, made.certificate, now],
  )) as unknown[];
  if (inserted.length === 1) return { before: null, after: { certificate: made.certificate, previousCertificate: null, previousExpiresAt: null } };
  const [row] = await executeOwned<KeyRow[]>(em, provider.applicationId, `select ${KEY_COLUMNS} from saml_sp_key where @owner and provider_id = ? for update`, [
    provider.id,
  ]);
  if (row === undefined) throw new Error(`the SAML provider ${provider.id} is gone`);
  const previousExpiresAt = graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000) : null;
  const keep = previousExpiresAt !== null;
  await executeOwned(
    em,
    provider.applicationId,
    `update saml_sp_key set private_key = ?, certificate = ?, previous_private_key = ?, previous_certificate = ?, previous_expires_at = ?
      where @owner and provider_id = ?`,
    [sealed, made.certificate, keep ? row.private_key : null, keep ? row.certificate : null, previousExpiresAt, provider.id],
  );
  const replacedUntil = row.previous_expires_at === null ? null : new Date(row.previous_expires_at);
  const replacedLive = replacedUntil !== null && replacedUntil > now;
  return {
    before: { certificate: row.certificate, previousCertificate: replacedLive ? row.previous_certificate : null, previousExpiresAt: replacedLive ? replacedUntil : null },
    after: { certificate: made.certificate, previousCertificate: keep ? row.certificate : null, previousExpiresAt },
  };
}

/** SHA-256 of the certificate's DER, as X509Certificate.fingerprint256 spells it: how an IdP's console shows one. */
export function certificateFingerprint(pem: string): string {
  const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  return createHash('sha256').update(der).digest('hex').toUpperCase().match(/../g)!.join(':');
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

/** Its serial from `random`: positive (RFC 5280 4.1.2.2) and 16 bytes whatever they are, the first in 0x40-0x7f, since a
 *  leading zero byte before one under 0x80 is an INTEGER with padding, which OpenSSL refuses to read. */
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
