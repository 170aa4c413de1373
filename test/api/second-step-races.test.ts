import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolFactor, recoveryCodesLeft } from '../../src/domain/mfa/factors.ts';
import { removeOwnFactor } from '../../src/domain/mfa/own-factors.ts';
import { activeUser, resolveTarget } from '../../src/domain/sign-in/sign-in.ts';
import { SHARED_POOL } from '../../src/db/entities/user.entity.ts';
import { issueLink, useLink } from '../../src/domain/users/link-tokens.ts';
import { passwordMark } from '../../src/domain/users/sign-in-user.ts';
import { requestOwnEmailChange } from '../../src/domain/users/own-account.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { lockWaitersAtLeast, usingEmbeddedDatabase } from '../support/database.ts';
import { queuedBehind } from '../support/row-lock.ts';
import { createPasswordUser, PASSWORD } from '../support/users.ts';

/**
 * Two tabs of one user changing their second steps or their address at once, through the domain calls the account pages
 * make: they take turns on the user's row (holdUserRow). PostgreSQL only: the embedded database runs
 * one transaction at a time.
 */
let app: TestApp;
let clientId: string;
beforeAll(async () => {
  app = await startTestApp();
  clientId = (await app.http.post('/oauth-clients', { name: 'Account', type: 'spa', redirectUris: ['https://app.example/cb'] })).body.id;
});
afterAll(async () => app?.close());

const TOTP = { kind: 'totp', secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', step: 1 } as const;

async function signedIn(email: string) {
  const target = await resolveTarget(
    app.gatehouse.services,
    'second-step-races',
    { clientId, data: { applicationId: app.root.applicationId, tenantId: null, type: 'spa', permissions: [], managementApi: false } },
    undefined,
  );
  const userId = await createPasswordUser(app.http, email);
  return { target, user: (await activeUser(target, userId))!, userId };
}

const codesLeft = (userId: string) => recoveryCodesLeft(app.gatehouse.services.orm.em.fork(), app.root.applicationId, userId);
const userRow = (userId: string) => ({ table: 'app_user', applicationId: app.root.applicationId, id: userId });

describe.skipIf(usingEmbeddedDatabase())('second steps and e-mail changes asked at once', () => {
  it('two factors enrolled at once issue one set of recovery codes, shown once, and a live reset link each, naming its factor', async () => {
    for (let round = 0; round < 3; round += 1) {
      const { target, user, userId } = await signedIn(`two-factors-${round}@example.com`);
      const shown = await queuedBehind(app.gatehouse.services.orm, userRow(userId), { lock: 'update' }, [
        () => enrolFactor(target, user, TOTP),
        () => enrolFactor(target, user, { kind: 'email_otp' }),
      ]);
      expect(shown.map((codes) => codes?.length).sort()).toEqual([0, 10]);
      expect(await codesLeft(userId)).toBe(10);
      // Each mail's link removes the factor it announced, so neither ends the other (issueEnrolmentLink).
      const links = await app.sql<{ removes_factor_id: string }>(
        "select removes_factor_id from email_link_token where user_id = ? and purpose = 'password_reset' and used_at is null order by removes_factor_id",
        [userId],
      );
      const factors = await app.sql<{ id: string }>('select id from mfa_factor where user_id = ? order by id', [userId]);
      expect(links.map((link) => link.removes_factor_id)).toEqual(factors.map((factor) => factor.id));
      expect(links).toHaveLength(2);
    }
  });

  it('a factor enrolled while the only other is removed keeps a set of recovery codes', async () => {
    for (let round = 0; round < 4; round += 1) {
      const { target, user, userId } = await signedIn(`enrol-remove-${round}@example.com`);
      await enrolFactor(target, user, { kind: 'email_otp' });
      const [factor] = await app.sql<{ id: string }>('select id from mfa_factor where user_id = ?', [userId]);
      const [, removed] = await Promise.all([enrolFactor(target, user, TOTP), removeOwnFactor(target, user, factor!.id, { password: PASSWORD, signedInAt: undefined, methods: [], confirmedAt: undefined })]);
      expect(removed).toEqual({ ok: true });
      expect(await app.sql<{ kind: string }>('select kind from mfa_factor where user_id = ?', [userId])).toEqual([{ kind: 'totp' }]);
      expect(await codesLeft(userId)).toBe(10);
    }
  });

  it('two e-mail changes asked at once leave one live link', async () => {
    const { target, user, userId } = await signedIn('changing@example.com');
    const answers = await queuedBehind(app.gatehouse.services.orm, userRow(userId), { lock: 'update' }, [
      () => requestOwnEmailChange(target, user, 'first@example.com', { password: PASSWORD, signedInAt: undefined, methods: [], confirmedAt: undefined }),
      () => requestOwnEmailChange(target, user, 'second@example.com', { password: PASSWORD, signedInAt: undefined, methods: [], confirmedAt: undefined }),
    ]);
    expect(answers).toEqual([{ ok: true }, { ok: true }]);
    const live = await app.sql<{ new_email: string }>(
      "select new_email from email_link_token where user_id = ? and purpose = 'email_change' and used_at is null",
      [userId],
    );
    expect(live).toHaveLength(1);
  });

  it('a reset link used while another is asked for: both finish, in turn, with no deadlock', async () => {
    const { orm } = app.gatehouse.services;
    const { applicationId } = app.root;
    const userId = await createPasswordUser(app.http, 'reset-while-asked@example.com');
    const linkUser = { applicationId, userId, poolId: SHARED_POOL, opener: { type: 'oauth_client', id: clientId }, tenantId: null } as const;
    const first = await orm.em.fork().transactional((em) => issueLink(em, linkUser, 'password_reset', 'https://gatehouse.example'));
    const token = new URL(first.link).searchParams.get('token');
    let asked: Promise<unknown> | undefined;
    // As the reset form's post: the link used, then the user's row written.
    await orm.em.fork().transactional(async (em) => {
      expect(await useLink(em, token, 'password_reset')).toBeDefined();
      asked = orm.em.fork().transactional((other) => issueLink(other, linkUser, 'password_reset', 'https://gatehouse.example'));
      await lockWaitersAtLeast(orm, 1);
      await em.execute('update app_user set updated_at = now() where application_id = ? and id = ?', [applicationId, userId]);
    });
    await expect(asked).resolves.toMatchObject({ link: expect.any(String) });
  });
});

describe('an enrolment judges its user where it writes', () => {
  const written = async (userId: string) => ({
    factors: await app.sql('select 1 from mfa_factor where user_id = ?', [userId]),
    codes: await codesLeft(userId),
    links: await app.sql('select 1 from email_link_token where user_id = ?', [userId]),
    audited: await app.sql(`select 1 from audit_log where target_id = ? and action = 'user.mfa.enrolled'`, [userId]),
  });
  const nothing = { factors: [], codes: 0, links: [], audited: [] };

  it.each([
    { change: 'suspended', sql: `update app_user set status = 'suspended' where id = ?` },
    { change: 'locked while the lock runs', sql: `update app_user set status = 'locked', locked_until = now() + interval '10 minutes' where id = ?` },
    { change: 'deleted', sql: `delete from app_user where id = ?` },
  ])('a user $change since the page read them gets inactive, and nothing is written', async ({ change, sql }) => {
    const { target, user, userId } = await signedIn(`judged-${change.split(' ')[0]}@example.com`);
    await app.sql(sql, [userId]);
    expect(await enrolFactor(target, user, TOTP)).toBe('inactive');
    expect(await written(userId)).toEqual(nothing);
  });

  it('a lock that has run out does not stop it (the user may act, as the sign-in has it)', async () => {
    const { target, user, userId } = await signedIn('judged-lapsed@example.com');
    await app.sql(`update app_user set status = 'locked', locked_until = now() - interval '1 minute' where id = ?`, [userId]);
    expect(await enrolFactor(target, user, TOTP)).toHaveLength(10);
  });

  it('a deactivated organization’s user gets inactive, and nothing is written; reactivated, the enrolment goes', async () => {
    const { target, user, userId } = await signedIn('judged-deactivated@example.com');
    const [{ organization_id: organizationId }] = (await app.sql<{ organization_id: string }>('select organization_id from application where id = ?', [app.root.applicationId])) as [
      { organization_id: string },
    ];
    await app.sql(`update organization set status = 'deactivated' where id = ?`, [organizationId]);
    try {
      expect(await enrolFactor(target, user, TOTP)).toBe('inactive');
    } finally {
      await app.sql(`update organization set status = 'active' where id = ?`, [organizationId]);
    }
    expect(await written(userId)).toEqual(nothing);
    expect(await enrolFactor(target, user, TOTP)).toHaveLength(10);
  });

  it('a proof of a password replaced since gets password_replaced, and nothing is written', async () => {
    const { target, user, userId } = await signedIn('judged-replaced@example.com');
    const proven = passwordMark(user);
    await app.sql(`update app_user set password_hash = 'replaced' where id = ?`, [userId]);
    expect(await enrolFactor(target, user, TOTP, { password: proven })).toBe('password_replaced');
    expect(await written(userId)).toEqual(nothing);
  });
});
