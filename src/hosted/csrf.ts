import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * HMAC-SHA256(key, purpose | uid), in every form and checked on every POST. The OP's SameSite=Lax `_interaction` cookie
 * binds the interaction to the browser, so a forged POST fails twice: another site cannot read the token, and a token
 * of the attacker's own interaction does not match the victim's cookie. The key is shared through the database.
 */
export class CsrfTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(secret, 'base64url');
  }

  issue(uid: string, purpose = 'csrf'): string {
    return createHmac('sha256', this.key).update(`${purpose}|${uid}`).digest('base64url');
  }

  // Constant-time: a near-miss must not tell an attacker how near it was.
  verify(uid: string, token: unknown, purpose = 'csrf'): boolean {
    if (typeof token !== 'string') return false;
    const expected = Buffer.from(this.issue(uid, purpose));
    const actual = Buffer.from(token);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  /** E.g. "this user proved their password". */
  seal(uid: string, value: string, ttlSeconds: number): string {
    const body = `${Buffer.from(value).toString('base64url')}.${Math.floor(Date.now() / 1000) + ttlSeconds}`;
    return `${body}.${this.issue(uid, `seal|${body}`)}`;
  }

  unseal(uid: string, sealed: unknown): string | undefined {
    if (typeof sealed !== 'string') return undefined;
    const parts = sealed.split('.');
    if (parts.length !== 3) return undefined;
    const [value, expires, mac] = parts as [string, string, string];
    const body = `${value}.${expires}`;
    if (!this.verify(uid, mac, `seal|${body}`)) return undefined;
    if (!(Number(expires) > Date.now() / 1000)) return undefined;
    return Buffer.from(value, 'base64url').toString('utf8');
  }
}

/** Created once by whichever instance starts first. */
export async function loadCsrfTokens(orm: MikroORM): Promise<CsrfTokens> {
  const connection = orm.em.getConnection();
  await connection.execute('insert into service_secret (name, value) values (?, ?) on conflict do nothing', [
    'hosted-csrf',
    randomBytes(32).toString('base64url'),
  ]);
  const [row] = await connection.execute<{ value: string }[]>('select value from service_secret where name = ?', ['hosted-csrf']);
  if (row === undefined) throw new Error('service secret hosted-csrf is missing');
  return new CsrfTokens(row.value);
}
