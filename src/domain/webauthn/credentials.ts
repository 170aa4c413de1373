import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../ids.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { displayNameProblem } from '../validate.ts';

/**
 * Passkeys and security keys, each for one relying-party ID, serving as a first factor and as the `webauthn` second
 * factor alike. Raw SQL does not pass through the tenancy filters: every statement names the application.
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

export interface ListedCredential {
  readonly id: string;
  readonly name: string;
  /** Every host's is listed, so that a lost one can go anywhere. */
  readonly rpId: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
}

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

/** A name the users' rule refuses gets the default: it reaches logs, lists and mails. */
const KEY_NAME_MAX = 100;
const DEFAULT_KEY_NAME = 'Passkey';

export function keyName(typed: string | null | undefined): string {
  const name = (typed ?? '').trim().slice(0, KEY_NAME_MAX).trim();
  return displayNameProblem(name) === undefined ? name : DEFAULT_KEY_NAME;
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

/** RFC 8176: `hwk` device-bound, `swk` synced (it leaves the hardware), `user` once the authenticator verified. */
export const amrOfCredential = (deviceType: DeviceType, userVerified: boolean): string[] => [deviceType === 'singleDevice' ? 'hwk' : 'swk', ...(userVerified ? ['user'] : [])];

/** A credential id is one user's in a pool: the authIsolation switch's copies of a user hold the original's keys. */
export async function findPoolCredential(em: EntityManager, applicationId: string, rpId: string, credentialId: string, poolId: string): Promise<StoredCredential | null> {
  const [row] = await executeOwned<CredentialRow[]>(
    em.getConnection(),
    applicationId,
    `select ${columns('c')} from webauthn_credential as c where @owner(c) and c.pool_id = ? and c.rp_id = ? and c.credential_id = ?`,
    [poolId, rpId, credentialId],
  );
  return row === undefined ? null : credentialOf(row);
}

export async function userCredentials(em: EntityManager, applicationId: string, userId: string, rpId: string): Promise<StoredCredential[]> {
  const rows = await executeOwned<CredentialRow[]>(
    em.getConnection(),
    applicationId,
    `select ${columns('c')} from webauthn_credential as c where @owner and user_id = ? and rp_id = ? order by created_at, id`,
    [userId, rpId],
  );
  return rows.map(credentialOf);
}

export async function listCredentials(em: EntityManager, applicationId: string, userId: string): Promise<ListedCredential[]> {
  const rows = await executeOwned<{ id: string; name: string; rp_id: string; created_at: Date; last_used_at: Date | null }[]>(
    em.getConnection(),
    applicationId,
    `select id, name, rp_id, created_at, last_used_at from webauthn_credential where @owner and user_id = ? order by created_at, id`,
    [userId],
  );
  return rows.map((row) => ({ id: row.id, name: row.name, rpId: row.rp_id, createdAt: new Date(row.created_at), lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at) }));
}

/** The stored key's id; null when the user's pool holds that credential id already for the relying party. The user's row
 *  is read `for share`: a pool switch moves the key with its user. */
export async function insertCredential(em: EntityManager, applicationId: string, userId: string, credential: NewCredential): Promise<string | null> {
  const id = newId();
  const added = await executeOwned<unknown[]>(
    em,
    applicationId,
    `insert into webauthn_credential (application_id, id, user_id, pool_id, rp_id, credential_id, public_key, counter, transports, device_type, backed_up, name)
     select u.application_id, ?, u.id, u.pool_id, ?, ?, ?, ?, array(select jsonb_array_elements_text(?::jsonb)), ?, ?, ?
       from app_user as u where @owner(u) and u.id = ? for share
     on conflict (application_id, pool_id, rp_id, credential_id) do nothing returning 1`,
    [
      id,
      credential.rpId,
      credential.credentialId,
      Buffer.from(credential.publicKey),
      credential.counter,
      JSON.stringify(credential.transports),
      credential.deviceType,
      credential.backedUp,
      credential.name,
      userId,
    ],
  );
  return added.length > 0 ? id : null;
}

/**
 * Unless the counter did not grow (0 stays 0 for authenticators that keep none): a cloned authenticator's. Refused,
 * and the key removed (cloned.ts).
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

/** Its name and relying party when it was theirs, else null. */
export async function removeCredential(em: EntityManager, applicationId: string, userId: string, id: string): Promise<{ name: string; rpId: string } | null> {
  const [removed] = await executeOwned<{ name: string; rp_id: string }[]>(
    em,
    applicationId,
    `delete from webauthn_credential where @owner and user_id = ? and id = ? returning name, rp_id`,
    [userId, id],
  );
  return removed === undefined ? null : { name: removed.name, rpId: removed.rp_id };
}
