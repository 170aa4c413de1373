import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../ids.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { isPlainText } from '../validate.ts';

/**
 * A user's WebAuthn credentials (migration 0031): passkeys and security keys, each for one relying-party ID, serving
 * as a first factor (a discoverable passkey) and as the `webauthn` second factor alike. Every statement names the
 * application: raw SQL does not pass through the tenancy filters.
 */
export type DeviceType = 'singleDevice' | 'multiDevice';

export interface StoredCredential {
  readonly id: string;
  readonly userId: string;
  readonly credentialId: string;
  readonly publicKey: Uint8Array;
  readonly counter: number;
  readonly transports: readonly string[];
  readonly deviceType: DeviceType;
}

/** A credential as the account page lists it. */
export interface ListedCredential {
  readonly id: string;
  readonly name: string;
  /** The host it works on (its relying-party ID): the page lists every host's, so that a lost one can go anywhere. */
  readonly rpId: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
}

/** A credential just proven by its registration, to store. */
export interface NewCredential {
  readonly rpId: string;
  readonly credentialId: string;
  readonly publicKey: Uint8Array;
  readonly counter: number;
  readonly transports: readonly string[];
  readonly deviceType: DeviceType;
  readonly backedUp: boolean;
  readonly name: string;
}

/** The longest name of a key; a blank or unprintable one gets the default. */
const KEY_NAME_MAX = 100;
const DEFAULT_KEY_NAME = 'Passkey';

/** A key's name as its user typed it. */
export function keyName(typed: string | null | undefined): string {
  const name = (typed ?? '').trim().slice(0, KEY_NAME_MAX);
  return name === '' || !isPlainText(name) ? DEFAULT_KEY_NAME : name;
}

interface CredentialRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: Buffer;
  counter: string | number;
  transports: string[];
  device_type: DeviceType;
}

const columns = (alias: string) => ['id', 'user_id', 'credential_id', 'public_key', 'counter', 'transports', 'device_type'].map((column) => `${alias}.${column}`).join(', ');

const credentialOf = (row: CredentialRow): StoredCredential => ({
  id: row.id,
  userId: row.user_id,
  credentialId: row.credential_id,
  publicKey: new Uint8Array(row.public_key),
  counter: Number(row.counter),
  transports: row.transports,
  deviceType: row.device_type,
});

/**
 * RFC 8176's `amr` of a WebAuthn proof: `hwk` for a key bound to its device, `swk` for one that syncs (a multi-device
 * passkey leaves the hardware), and `user` once the authenticator verified its user (PIN, biometrics).
 */
export const amrOfCredential = (deviceType: DeviceType, userVerified: boolean): string[] => [deviceType === 'singleDevice' ? 'hwk' : 'swk', ...(userVerified ? ['user'] : [])];

/** The credential `credentialId` of the relying party, when it belongs to a user of the pool `poolId` (else null). */
export async function findPoolCredential(em: EntityManager, applicationId: string, rpId: string, credentialId: string, poolId: string): Promise<StoredCredential | null> {
  const [row] = await executeOwned<CredentialRow[]>(
    em.getConnection(),
    applicationId,
    `select ${columns('c')} from webauthn_credential as c join app_user as u on u.application_id = c.application_id and u.id = c.user_id
      where @owner(c) and c.rp_id = ? and c.credential_id = ? and u.pool_id = ?`,
    [rpId, credentialId, poolId],
  );
  return row === undefined ? null : credentialOf(row);
}

/** The user's credentials for the relying party. */
export async function userCredentials(em: EntityManager, applicationId: string, userId: string, rpId: string): Promise<StoredCredential[]> {
  const rows = await executeOwned<CredentialRow[]>(
    em.getConnection(),
    applicationId,
    `select ${columns('c')} from webauthn_credential as c where @owner and user_id = ? and rp_id = ? order by created_at, id`,
    [userId, rpId],
  );
  return rows.map(credentialOf);
}

/** The user's credentials on every relying party, for the account page. */
export async function listCredentials(em: EntityManager, applicationId: string, userId: string): Promise<ListedCredential[]> {
  const rows = await executeOwned<{ id: string; name: string; rp_id: string; created_at: Date; last_used_at: Date | null }[]>(
    em.getConnection(),
    applicationId,
    `select id, name, rp_id, created_at, last_used_at from webauthn_credential where @owner and user_id = ? order by created_at, id`,
    [userId],
  );
  return rows.map((row) => ({ id: row.id, name: row.name, rpId: row.rp_id, createdAt: new Date(row.created_at), lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at) }));
}

/** Stores a proven credential; false when the relying party holds that credential id already (nothing written). */
export async function insertCredential(em: EntityManager, applicationId: string, userId: string, credential: NewCredential): Promise<boolean> {
  const added = await em.execute(
    `insert into webauthn_credential (application_id, id, user_id, rp_id, credential_id, public_key, counter, transports, device_type, backed_up, name)
     values (?, ?, ?, ?, ?, ?, ?, array(select jsonb_array_elements_text(?::jsonb)), ?, ?, ?) on conflict (application_id, rp_id, credential_id) do nothing returning 1`,
    [
      applicationId,
      newId(),
      userId,
      credential.rpId,
      credential.credentialId,
      Buffer.from(credential.publicKey),
      credential.counter,
      JSON.stringify(credential.transports),
      credential.deviceType,
      credential.backedUp,
      credential.name,
    ],
  );
  return added.length > 0;
}

/**
 * A use of the credential: its new signature counter, unless another use raced ahead (a counter that does not grow
 * is a cloned authenticator's, refused; 0 stays 0 for authenticators that keep none). False: refused.
 */
export async function recordUse(em: EntityManager, applicationId: string, id: string, counter: number): Promise<boolean> {
  const used = await executeOwned<unknown[]>(
    em.getConnection(),
    applicationId,
    `update webauthn_credential set counter = ?, last_used_at = now() where @owner and id = ? and (counter < ? or (counter = 0 and ? = 0)) returning 1`,
    [counter, id, counter, counter],
  );
  return used.length > 0;
}

/** Removes one of the user's credentials; its name when it was theirs, else null. */
export async function removeCredential(em: EntityManager, applicationId: string, userId: string, id: string): Promise<string | null> {
  const [removed] = await executeOwned<{ name: string }[]>(em, applicationId, `delete from webauthn_credential where @owner and user_id = ? and id = ? returning name`, [userId, id]);
  return removed?.name ?? null;
}
