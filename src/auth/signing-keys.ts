import type { EntityManager } from '@mikro-orm/postgresql';
import type { JWK, JWTPayload } from 'jose';
import { lockForTransaction } from '../db/advisory-lock.ts';
import { SigningKey } from '../db/entities/index.ts';
import { newId } from '../ids.ts';
import { generateSigningKey, signJwt, verifyAccessToken, type GeneratedKey } from './jwt.ts';

/** Access tokens live at most this long. */
export const MAX_ACCESS_TOKEN_SECONDS = 3600;
/** How long an instance uses the keys it read before reading them again. */
const CACHE_MS = 30_000;
/**
 * How long a retired key keeps verifying after its retirement: another instance may go on signing with it until its
 * cache expires, and those tokens live their full lifetime from then.
 */
export const RETIRED_KEY_VERIFIES_MS = MAX_ACCESS_TOKEN_SECONDS * 1000 + CACHE_MS;

/**
 * The service's signing keys, kept in the database so every instance signs and verifies with the same set
 * (instances stay stateless). The newest active key signs; retired keys verify until their tokens expire.
 * The public set is cached briefly and re-read at once when a token names an unknown `kid` (rotated elsewhere).
 */
export class SigningKeyStore {
  private cached: { at: number; keys: SigningKey[] } | undefined;
  private readonly em: EntityManager;
  private readonly issuer: string;

  constructor(em: EntityManager, issuer: string) {
    this.em = em;
    this.issuer = issuer;
  }

  get managementAudience(): string {
    return `${this.issuer}/api/v1`;
  }

  private async load(force = false): Promise<SigningKey[]> {
    if (!force && this.cached !== undefined && Date.now() - this.cached.at < CACHE_MS) return this.cached.keys;
    const horizon = new Date(Date.now() - RETIRED_KEY_VERIFIES_MS);
    const keys = await this.em.fork().find(
      SigningKey,
      { $or: [{ status: 'active' }, { retiredAt: { $gt: horizon } }] },
      { orderBy: { createdAt: 'desc' } },
    );
    this.cached = { at: Date.now(), keys };
    return keys;
  }

  /** Creates the first key on an empty database: one, however many instances start on it together. */
  async ensureActiveKey(): Promise<void> {
    if ((await this.load(true)).some((key) => key.status === 'active')) return;
    await this.activate(await generateSigningKey(), 'if-none-is-active');
  }

  /** Adds a new active key and retires the previous ones; tokens they signed keep verifying until expiry. */
  async rotate(): Promise<string> {
    const generated = await generateSigningKey();
    await this.activate(generated, 'always');
    return generated.kid;
  }

  /**
   * Makes `generated` the one active key, under an advisory lock: without it, instances starting together on an empty
   * database (or rotations at the same moment) each see no new key, and each leaves its own active.
   */
  private async activate(generated: GeneratedKey, when: 'always' | 'if-none-is-active'): Promise<void> {
    await this.em.fork().transactional(async (em) => {
      await lockForTransaction(em, 'gatehouse:signing-keys');
      if (when === 'if-none-is-active' && (await em.count(SigningKey, { status: 'active' })) > 0) return;
      await em.nativeUpdate(SigningKey, { status: 'active' }, { status: 'retired', retiredAt: new Date() });
      em.create(SigningKey, {
        id: newId(),
        kid: generated.kid,
        alg: generated.alg,
        publicJwk: generated.publicJwk,
        privateJwk: generated.privateJwk,
        status: 'active',
      });
    });
    this.cached = undefined;
  }

  /**
   * The private JWK set the OAuth provider signs and publishes with (src/oidc/): the active key first (it signs),
   * then retired keys still inside their verification window (published, never signing). Same cache as above.
   */
  async privateJwks(): Promise<{ keys: JWK[] }> {
    const keys = await this.load();
    const ordered = [...keys.filter((key) => key.status === 'active'), ...keys.filter((key) => key.status !== 'active')];
    return { keys: ordered.map((key) => key.privateJwk as JWK) };
  }

  async publicJwks(): Promise<JWK[]> {
    return (await this.load()).map((key) => key.publicJwk as JWK);
  }

  /** Signs an access token with the active key: for the management API unless another audience is named. */
  async signAccessToken(
    subject: string,
    claims: JWTPayload,
    { audience = this.managementAudience, expiresInSeconds = 900 }: { audience?: string; expiresInSeconds?: number } = {},
  ): Promise<string> {
    const active = (await this.load()).find((key) => key.status === 'active');
    if (active === undefined) throw new Error('no active signing key');
    return signJwt(active.privateJwk as JWK, claims, {
      issuer: this.issuer,
      audience,
      subject,
      expiresInSeconds: Math.min(expiresInSeconds, MAX_ACCESS_TOKEN_SECONDS),
    });
  }

  /**
   * A management API access token signed by one of our keys. `issuer` 'service' accepts only the service's own
   * issuer; 'caller-checks' accepts any `iss`, for a caller that then decides which sign-in surfaces' issuers it
   * accepts (src/auth/authenticate.ts).
   */
  async verifyAccessToken(token: string, issuer: 'service' | 'caller-checks' = 'service'): Promise<JWTPayload> {
    const options = { issuer: issuer === 'service' ? this.issuer : undefined, audience: this.managementAudience };
    try {
      return await verifyAccessToken(token, await this.publicJwks(), options);
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw error;
      return verifyAccessToken(token, (await this.load(true)).map((key) => key.publicJwk as JWK), options);
    }
  }
}
