import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { newId } from '../../src/ids.ts';
import type { TestApp } from './app.ts';
import { readForm, type PageForm, type Visit } from './cookie-jar.ts';

/**
 * A software WebAuthn authenticator for tests in Node: an ES256 key made with node:crypto, registered with a "none"
 * attestation and asserting as a platform authenticator would (user present, verified unless told otherwise), so that
 * a test drives the hosted pages' ceremonies without a browser. The answers are the JSON the pages' script posts.
 */

/** The smallest CBOR encoder the attestation needs (RFC 8949): unsigned and negative integers, bytes, text, maps. */
function cbor(value: unknown): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value as object);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)])]);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export interface AuthenticatorOptions {
  /** Whether it verifies its user (PIN, biometrics): the UV flag. Default true. */
  readonly userVerified?: boolean;
  /** Whether its key syncs (backup eligible and backed up: a multi-device passkey). Default false. */
  readonly synced?: boolean;
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private counter = 0;
  /** The user handle the registration gave it, returned by assertions as a discoverable credential does. */
  userHandle: string | undefined;

  private readonly options: AuthenticatorOptions;

  constructor(options: AuthenticatorOptions = {}) {
    this.options = options;
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get synced(): boolean {
    return this.options.synced ?? false;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The COSE_Key of the public key (EC2, ES256). */
  coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return cbor(new Map<number, unknown>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')]]));
  }

  private flags(attested: boolean): number {
    const synced = this.options.synced === true ? 0x08 | 0x10 : 0;
    return 0x01 | (this.options.userVerified === false ? 0 : 0x04) | synced | (attested ? 0x40 : 0);
  }

  private authData(rpId: string, attested: boolean, counter: number): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const base = Buffer.concat([sha256(rpId), Buffer.from([this.flags(attested)]), count]);
    if (!attested) return base;
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    return Buffer.concat([base, Buffer.alloc(16), length, this.credentialId, this.coseKey()]);
  }

  /** The answer to creation options (`rp.id`, `user.id`, `challenge`) from `origin`; `rpId` overrides the options'. */
  register(options: { challenge: string; rp: { id?: string }; user: { id: string } }, origin: string, override: { rpId?: string } = {}) {
    this.userHandle = options.user.id;
    const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false }));
    const attestation = cbor({ fmt: 'none', attStmt: {}, authData: this.authData(override.rpId ?? options.rp.id!, true, this.counter) });
    return JSON.stringify({
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientData), attestationObject: b64url(attestation), transports: ['internal'] },
      clientExtensionResults: {},
    });
  }

  /**
   * The answer to request options (`rpId`, `challenge`) from `origin`, its signature counter one up (`counter`: the
   * one to claim instead); `rpId` overrides the options'.
   */
  assert(options: { challenge: string; rpId?: string }, origin: string, override: { rpId?: string; counter?: number } = {}) {
    this.counter = override.counter ?? this.counter + 1;
    const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }));
    const authData = this.authData(override.rpId ?? options.rpId!, false, this.counter);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.privateKey);
    return JSON.stringify({
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(signature), ...(this.userHandle === undefined ? {} : { userHandle: this.userHandle }) },
      clientExtensionResults: {},
    });
  }
}

/** A page's WebAuthn form (`data-webauthn`): its ceremony, its options, and the form as a browser would post it. */
export function webauthnFormOf(page: Visit): { ceremony: 'get' | 'create'; options: Record<string, unknown> & { challenge: string }; form: PageForm } {
  const match = /<form\b[^>]*data-webauthn="(get|create)" data-options="([^"]*)"[^>]*>[\s\S]*?<\/form>/.exec(page.body);
  if (match === null) throw new Error(`no WebAuthn form on ${page.url}:\n${page.body.slice(0, 2000)}`);
  const options = JSON.parse(match[2]!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))) as Record<string, unknown> & { challenge: string };
  return { ceremony: match[1] as 'get' | 'create', options, form: readForm(page.url, match[0]) };
}

/** A credential given to the user directly (as a registration stores it, in their pool), for the relying party `rpId`. */
export async function giveKey(app: TestApp, applicationId: string, userId: string, rpId: string, authenticator = new SoftAuthenticator(), name = 'Test key'): Promise<SoftAuthenticator> {
  await app.gatehouse.services.orm.em.getConnection().execute(
    `insert into webauthn_credential (application_id, id, user_id, pool_id, rp_id, credential_id, public_key, device_type, backed_up, name)
     select application_id, ?, id, pool_id, ?, ?, ?, ?, ?, ? from app_user where application_id = ? and id = ?`,
    [newId(), rpId, authenticator.id, authenticator.coseKey(), authenticator.synced ? 'multiDevice' : 'singleDevice', authenticator.synced, name, applicationId, userId],
  );
  return authenticator;
}
