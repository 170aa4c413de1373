import type { EntityManager } from '@mikro-orm/postgresql';
import type { JWK, JWTPayload } from 'jose';
import { lockedTransaction } from '../db/advisory-lock.ts';
import { SigningKey } from '../db/entities/index.ts';
import { SIGNING_ALGS, type SigningAlg } from '../db/entities/signing-key.entity.ts';
import { YEAR_MINUTES } from '../domain/policies/definitions.ts';
import { newId } from '../ids.ts';
import { ACCESS_TOKEN_ALG, generateSigningKey, signJwt, verifyAccessToken, type GeneratedKey, type VerifyOptions } from './jwt.ts';

/** The longest an access or ID token lives (the OP's TTLs and the M2M tokens take it as their bound). */
export const MAX_ACCESS_TOKEN_SECONDS = 3600;
const CACHE_MS = 30_000;
/** Every instance re-reads within a cache period, so by then each publishes the key; the second covers slow reads and skew. */
export const PUBLISHED_BEFORE_SIGNING_MS = 2 * CACHE_MS;
/**
 * As long as a session that saw it sign can last (the longest absolute timeout a session policy allows), plus a cache
 * period for an instance still signing with it: an RP's ID token names its session as `id_token_hint` (logout,
 * `prompt=none`) however old, and oidc-provider checks only its signature. Its access tokens expire long before.
 */
export const RETIRED_KEY_VERIFIES_MS = YEAR_MINUTES * 60_000 + CACHE_MS;
/**
 * An unknown `kid` is refused without a re-read this soon after one: anyone can send made-up kids, and the rate limit
 * counts only after authentication.
 */
export const UNKNOWN_KID_REREAD_MS = 5_000;

/** Keys made before pre-publication sign from their creation. */
const signsFrom = (key: SigningKey): number => (key.signsFrom ?? key.createdAt).getTime();

const generateKeys = (algs: readonly SigningAlg[]): Promise<GeneratedKey[]> => Promise.all(algs.map((alg) => generateSigningKey(alg)));

const kidsByAlg = (keys: readonly GeneratedKey[]) => Object.fromEntries(keys.map((key) => [key.alg, key.kid])) as Record<SigningAlg, string>;

/** In the database so every instance shares the set; one key per algorithm signs at a time, and algorithms rotate together. */
export class SigningKeyStore {
  private cached: { at: number; keys: SigningKey[] } | undefined;
  /** Shared by the requests that arrive meanwhile. */
  private rereading: Promise<SigningKey[]> | undefined;
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
      { $or: [{ status: 'active' }, { status: 'retired', retiredAt: { $gt: horizon } }] },
      { orderBy: { createdAt: 'desc' } },
    );
    this.cached = { at: Date.now(), keys };
    return keys;
  }

  /** Once however many instances start together; it signs from creation, as no predecessor exists to sign meanwhile. */
  async ensureActiveKey(): Promise<void> {
    const keys = await this.load(true);
    const missing = SIGNING_ALGS.filter((alg) => !keys.some((key) => key.alg === alg && key.status === 'active'));
    if (missing.length === 0) return;
    await this.activate(await generateKeys(missing), 'if-none-is-active');
  }

  /**
   * `at: 'once'` signs now, ahead of other instances' caches. `revoke` (a leaked key): every previous key stops
   * verifying, so what it signed is refused; other instances follow when their caches expire.
   */
  async rotate({ at = 'after-publication', revoke = false }: { at?: 'after-publication' | 'once'; revoke?: boolean } = {}): Promise<{
    kids: Record<SigningAlg, string>;
    signsFrom: Date;
  }> {
    const generated = await generateKeys(SIGNING_ALGS);
    const from = new Date(Date.now() + (at === 'once' || revoke ? 0 : PUBLISHED_BEFORE_SIGNING_MS));
    await this.activate(generated, revoke ? 'revoking-previous' : 'always', from);
    return { kids: kidsByAlg(generated), signsFrom: from };
  }

  /** Under an advisory lock, else instances starting or rotating together would each leave their own active key. */
  private async activate(generated: GeneratedKey[], when: 'always' | 'if-none-is-active' | 'revoking-previous', signsFrom?: Date): Promise<void> {
    await lockedTransaction(this.em.fork(), 'gatehouse:signing-keys', async (em) => {
      for (const key of generated) {
        if (when === 'if-none-is-active' && (await em.count(SigningKey, { alg: key.alg, status: 'active' })) > 0) continue;
        const retiredAt = signsFrom ?? new Date();
        if (when === 'revoking-previous') {
          await em.nativeUpdate(SigningKey, { alg: key.alg, status: { $in: ['active', 'retired'] } }, { status: 'revoked', retiredAt: new Date() });
        }
        await em.nativeUpdate(SigningKey, { alg: key.alg, status: 'active' }, { status: 'retired', retiredAt });
        await em.nativeUpdate(SigningKey, { alg: key.alg, status: 'retired', retiredAt: { $gt: retiredAt } }, { retiredAt });
        em.create(SigningKey, {
          id: newId(),
          kid: key.kid,
          alg: key.alg,
          publicJwk: key.publicJwk,
          privateJwk: key.privateJwk,
          status: 'active',
          signsFrom: signsFrom ?? null,
        });
      }
    });
    this.cached = undefined;
  }

  private signing(all: SigningKey[], alg: SigningAlg): SigningKey | undefined {
    const keys = all.filter((key) => key.alg === alg);
    const now = Date.now();
    const inPeriod = keys.find((key) => signsFrom(key) <= now && (key.retiredAt === null || key.retiredAt === undefined || key.retiredAt.getTime() > now));
    // Clocks that disagree with the ones that wrote the periods: the newest key already signing, else the active one.
    return inPeriod ?? keys.find((key) => signsFrom(key) <= now) ?? keys.find((key) => key.status === 'active');
  }

  /**
   * Signing keys first, ES256 leading (oidc-provider signs with the first key that fits the algorithm). The order changes
   * when a pre-published key starts signing, so an OP built on it is rebuilt then.
   */
  async privateJwks(): Promise<{ keys: JWK[] }> {
    const keys = await this.load();
    const signing = SIGNING_ALGS.map((alg) => this.signing(keys, alg)).filter((key) => key !== undefined);
    const ordered = [...signing, ...keys.filter((key) => !signing.includes(key))];
    return { keys: ordered.map((key) => key.privateJwk as JWK) };
  }

  async publicJwks(): Promise<JWK[]> {
    return (await this.load()).map((key) => key.publicJwk as JWK);
  }

  private rereadForUnknownKid(): Promise<SigningKey[]> | undefined {
    if (this.rereading !== undefined) return this.rereading;
    if (this.cached !== undefined && Date.now() - this.cached.at < UNKNOWN_KID_REREAD_MS) return undefined;
    this.rereading = this.load(true).finally(() => {
      this.rereading = undefined;
    });
    return this.rereading;
  }

  async signAccessToken(
    subject: string,
    claims: JWTPayload,
    { audience = this.managementAudience, expiresInSeconds = 900 }: { audience?: string; expiresInSeconds?: number } = {},
  ): Promise<string> {
    const signing = this.signing(await this.load(), ACCESS_TOKEN_ALG);
    if (signing === undefined) throw new Error('no active signing key');
    return signJwt(signing.privateJwk as JWK, claims, {
      issuer: this.issuer,
      audience,
      subject,
      expiresInSeconds: Math.min(expiresInSeconds, MAX_ACCESS_TOKEN_SECONDS),
    });
  }

  /** 'caller-checks' accepts any `iss`, for a caller that checks it. */
  async verifyAccessToken(token: string, issuer: 'service' | 'caller-checks' = 'service'): Promise<JWTPayload> {
    return this.verify(token, { issuer: issuer === 'service' ? this.issuer : undefined, audience: this.managementAudience });
  }

  async verifyIssuedAccessToken(token: string, issuer: string): Promise<JWTPayload> {
    return this.verify(token, { issuer, audience: undefined });
  }

  async verifyOwnAccessToken(token: string): Promise<JWTPayload> {
    return this.verify(token, { issuer: undefined, audience: undefined });
  }

  private async verify(token: string, options: VerifyOptions): Promise<JWTPayload> {
    try {
      return await verifyAccessToken(token, await this.publicJwks(), options);
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw error;
      const reread = await this.rereadForUnknownKid();
      if (reread === undefined) throw error;
      return verifyAccessToken(token, reread.map((key) => key.publicJwk as JWK), options);
    }
  }
}
