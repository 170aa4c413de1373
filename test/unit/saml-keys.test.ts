import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../src/domain/sign-in/saml-keys.ts';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

describe("a SAML provider's self-signed certificate", () => {
  // A zero first byte before one under 0x80 would make an INTEGER with padding, which OpenSSL refuses to read.
  it.each([
    ['all zeros', [0x00, 0x00]],
    ['a zero byte before one under 0x80', [0x00, 0x7f]],
    ['a high bit that a positive serial cannot keep', [0x80, 0x00]],
    ['all ones', [0xff, 0xff]],
  ])('reads back, signed by its key, with a positive 16-byte serial from %s', (_, [first, second]) => {
    const random = new Uint8Array(16).fill(first === 0xff ? 0xff : 0x00);
    random[0] = first!;
    random[1] = second!;
    const certificate = new X509Certificate(selfSignedCertificate('Gatehouse SAML SP test', publicKey, privateKey, random));
    expect(certificate.verify(publicKey)).toBe(true);
    expect(certificate.subject).toBe('CN=Gatehouse SAML SP test');
    expect(certificate.serialNumber).toMatch(/^[4-7][0-9A-F]{31}$/);
  });

  it('keeps the random bytes past the first', () => {
    const random = Uint8Array.from({ length: 16 }, (_, i) => i * 16 + 1);
    const certificate = new X509Certificate(selfSignedCertificate('Gatehouse SAML SP test', publicKey, privateKey, random));
    expect(certificate.serialNumber).toBe(`41${Buffer.from(random.subarray(1)).toString('hex').toUpperCase()}`);
  });
});
