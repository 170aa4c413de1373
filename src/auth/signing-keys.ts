import type { EntityManager } from '@mikro-orm/postgresql';
import type { JWK, JWTPayload } from 'jose';
import { lockedTransaction } from '../db/advisory-lock.ts';
import { SigningKey } from '../db/entities/index.ts';
import { SIGNING_ALGS, type SigningAlg } from '../db/entities/signing-key.entity.ts';
import { newId } from '../ids.ts';
import { ACCESS_TOKEN_ALG, generateSigningKey, signJwt, verifyAccessToken, type GeneratedKey, type VerifyOptions } from './jwt.ts';

export const MAX_ACCESS_TOKEN_SECONDS = 3600;
/** How long an instance uses the keys it read before reading them again. */
const CACHE_MS = 30_000;
/**
 * How long a rotated-in key is published before it signs: every instance re-reads the keys within a cache period, so
 * by then each publishes it; the second period covers a slow read and skewed clocks. Each instance knows `signsFrom`
 * in advance, so all switch at the same moment.
 */
export const PUBLISHED_BEFORE_SIGNING_MS = 2 * CACHE_MS;
/**
 * How long a retired key keeps verifying: the tokens it signed live their full lifetime from its retirement, plus a
 * cache period for an instance still signing with it (a clock behind, or a rotation `at once` it was not told of).
 */
export const RETIRED_KEY_VERIFIES_MS = MAX_ACCESS_TOKEN_SECONDS * 1000 + CACHE_MS;
/**
 * How recent a read of the keys makes a token's unknown `kid` unknown for good (refused without a re-read): anyone can
 * send made-up kids, and the rate limit counts only after authentication. A key rotated in elsewhere is published
 * PUBLISHED_BEFORE_SIGNING_MS before it signs, so only a rotation `at once` needs the re-read.
 */
export const UNKNOWN_KID_REREAD_MS = 5_000;

/** From when a key signs: its `signsFrom`, or its creation for the first key and every key made before pre-publication. */
const signsFrom = (key: SigningKey): number => (key.signsFrom ?? key.createdAt).getTime();

const generateKeys = (algs: readonly SigningAlg[]): Promise<GeneratedKey[]> => Promise.all(algs.map((alg) => generateSigningKey(alg)));

const kidsByAlg = (keys: readonly GeneratedKey[]) => Object.fromEntries(keys.map((key) => [key.alg, key.kid])) as Record<SigningAlg, string>;

/**
 * The service's signing keys, in the database so every instance signs and verifies with the same set. One key per
 * algorithm signs at a time (the active one from its `signsFrom`, its predecessor until then); retired keys verify
 * until their tokens expire; algorithms rotate together. The public set is cached briefly, re-read on an unknown `kid`.
 */
export class SigningKeyStore {
  private cached: { at: number; keys: SigningKey[] } | undefined;
  /** The re-read a token's unknown `kid` started, shared by the requests that arrive meanwhile. */
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

  /**
   * Creates the active key of each algorithm that has none, once however many instances start together. It signs from
   * its creation: no predecessor of its algorithm exists to sign meanwhile.
   */
  async ensureActiveKey(): Promise<void> {
    const keys = await this.load(true);
    const missing = SIGNING_ALGS.filter((alg) => !keys.some((key) => key.alg === alg && key.status === 'active'));
    if (missing.length === 0) return;
    await this.activate(await generateKeys(missing), 'if-none-is-active');
  }

  /**
   * Adds a new active key of every algorithm and retires the previous ones, which verify until their tokens expire. The
   * new keys sign after PUBLISHED_BEFORE_SIGNING_MS, once every instance publishes them; `at: 'once'` signs now, ahead
   * of other instances' caches. `revoke` (a leaked key; `at` is then 'once'): every previous key stops verifying, so
   * what it signed is refused; other instances follow when their caches expire.
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

  /**
   * Makes each of `generated` the one active key of its algorithm, under an advisory lock (else instances starting or
   * rotating together would each leave their own active). The keys it replaces sign until `signsFrom`, a pending
   * rotation's too; `revoking-previous` revokes them and the retired ones instead.
   */
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

  /** The key of `alg` that signs now: the one whose signing period holds this moment (keys newest first). */
  private signing(all: SigningKey[], alg: SigningAlg): SigningKey | undefined {
    const keys = all.filter((key) => key.alg === alg);
    const now = Date.now();
    const inPeriod = keys.find((key) => signsFrom(key) <= now && (key.retiredAt === null || key.retiredAt === undefined || key.retiredAt.getTime() > now));
    // Clocks that disagree with the ones that wrote the periods: the newest key already signing, else the active one.
    return inPeriod ?? keys.find((key) => signsFrom(key) <= now) ?? keys.find((key) => key.status === 'active');
  }

  /**
   * The private JWK set the OP signs and publishes with: the keys that sign now first, ES256 leading (oidc-provider signs
   * with the first key that fits the algorithm), then keys not yet signing or retired but still verifying. The order
   * changes when a pre-published key starts signing, so an OP built on it is rebuilt then.
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

  /** The keys re-read for a `kid` the cached set lacks, unless read within UNKNOWN_KID_REREAD_MS (undefined); one read at a time. */
  private rereadForUnknownKid(): Promise<SigningKey[]> | undefined {
    if (this.rereading !== undefined) return this.rereading;
    if (this.cached !== undefined && Date.now() - this.cached.at < UNKNOWN_KID_REREAD_MS) return undefined;
    this.rereading = this.load(true).finally(() => {
      this.rereading = undefined;
    });
    return this.rereading;
  }

  /** Signs an access token with the key that signs now: for the management API unless another audience is named. */
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

  /** A management API access token signed by one of our keys; 'caller-checks' accepts any `iss`, for a caller that checks it. */
  async verifyAccessToken(token: string, issuer: 'service' | 'caller-checks' = 'service'): Promise<JWTPayload> {
    return this.verify(token, { issuer: issuer === 'service' ? this.issuer : undefined, audience: this.managementAudience });
  }

  /** An access token of any resource (the management API, an API resource) that `issuer` signed with one of our keys. */
  async verifyIssuedAccessToken(token: string, issuer: string): Promise<JWTPayload> {
    return this.verify(token, { issuer, audience: undefined });
  }

  /** An access token of any surface's issuer and any resource signed with one of our keys (a session's validation). */
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
