import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Unlike API keys these cannot be hashes: the OP compares `client_secret` in clear. Encrypted under a database-held
 * service secret, so a dump of `oauth_client` alone reveals none.
 */
export const CLIENT_SECRET_PREFIX = 'ghs_';

export function generateClientSecret(): string {
  return CLIENT_SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/** AES-256-GCM, one key per purpose derived from a service secret: client secrets, e-mail and auth provider credentials. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(serviceSecret: string, purpose: string) {
    this.key = createHash('sha256').update(`gatehouse ${purpose}\0`).update(serviceSecret).digest();
  }

  encrypt(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
  }

  decrypt(encrypted: string): string {
    const [iv, tag, sealed] = encrypted.split('.').map((part) => Buffer.from(part, 'base64url'));
    if (iv === undefined || tag === undefined || sealed === undefined) throw new Error('malformed sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
  }
}

