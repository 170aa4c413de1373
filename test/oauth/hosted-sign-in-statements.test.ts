import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';

/**
 * The SQL statements of a hosted password sign-in (the login POST and the redirects until the code), pinned so that
 * they cannot creep back: docs/bench.md counts the same path. Every record the sign-in makes is still made.
 */
const PASSWORD = 'Correct-Horse-9';

/** oidc-provider's own storage calls (the interaction, grant, code and session, read and written). */
const OP_STATEMENTS = 9;
/**
 * Ours: the form's claim on its interaction and its release (src/oidc/interaction-claims.ts), the user by e-mail with
 * the address's lockout standing and their MFA factors (which the MFA step, under the default `optional`, decides on),
 * the success's reset of failures, the sign-in's record with its rollups (one statement), the grant's tenant, the OP's
 * account lookup on resuming. The password policy's maxAge comes with the cached surface settings; the browser
 * session's index row is written in the OP's session save.
 */
const OUR_STATEMENTS = 7;

let hosted: HostedTestApp;
let app: TestApp;
let issuer: string;

beforeAll(async () => {
  hosted = await startHostedTestApp();
  ({ app, issuer } = hosted);
  const lockout = await app.http.put('/policies/lockout', { enabled: true, maxAttempts: 5, lockoutMinutes: 5, resetAfterMinutes: 15, accountLockAddresses: null });
  expect(lockout.status, JSON.stringify(lockout.body)).toBe(200);
});
afterAll(async () => hosted?.close());

/** The statements of one submitted form until its last answer (a code, or the page that refused it). */
async function statementsOf(email: string, password: string) {
  const { jar, page } = await hosted.signInPage();
  app.queries.length = 0;
  const answer = await jar.submit(page, { email, password });
  const code = answer.status === 303 ? (await jar.followOut(answer, issuer)).searchParams.get('code') : null;
  return { status: answer.status, code, statements: [...app.queries] };
}

describe('hosted password sign-in statements', () => {
  it(`a sign-in makes ${OP_STATEMENTS + OUR_STATEMENTS} statements and keeps its records; a refusal makes as few whatever it refuses`, async () => {
    const created = await app.http.post('/users', { email: 'stat@example.com', password: PASSWORD });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const userId = created.body.id as string;
    // The first fills the instance's caches (surface settings, the client), as every later sign-in finds them.
    expect((await statementsOf('stat@example.com', PASSWORD)).code).toBeTruthy();

    const signIn = await statementsOf('stat@example.com', PASSWORD);
    expect(signIn.code).toBeTruthy();
    expect(signIn.statements.length, signIn.statements.join('\n')).toBe(OP_STATEMENTS + OUR_STATEMENTS);
    expect(signIn.statements.filter((statement) => /^(begin|commit)\b/i.test(statement)), 'no statement needs a transaction of its own').toEqual([]);

    // Its records: both sign-ins audited with their rollups, and one session indexed.
    const records = await app.http.get(`/audit-logs?action=user.signed_in&target=${userId}`);
    expect(records.body.data).toHaveLength(2);
    const sql = <T>(query: string) => app.gatehouse.services.orm.em.getConnection().execute<T[]>(query, [app.root.applicationId]);
    expect(await sql<{ succeeded: number }>(`select succeeded from analytics_sign_ins where application_id = ? and method = 'password'`)).toEqual([{ succeeded: 2 }]);
    expect(await sql(`select 1 from analytics_active_user where application_id = ? and period = 'day'`)).toHaveLength(1);
    expect((await app.http.get(`/users/${userId}/sessions`)).body.data).toHaveLength(2);

    // Refused: the interaction, its claim and release, the user with the standing, the record; a wrong password also
    // counts its failure.
    const unknown = await statementsOf('nobody@example.com', PASSWORD);
    const wrong = await statementsOf('stat@example.com', 'Wrong-Horse-9');
    expect([unknown.status, wrong.status]).toEqual([400, 400]);
    expect(unknown.statements.length, unknown.statements.join('\n')).toBe(5);
    expect(wrong.statements.length, wrong.statements.join('\n')).toBe(6);
    expect(
      await sql(`select after->>'reason' as reason, outcome from audit_log where application_id = ? and action = 'user.sign_in_failed' order by seq`),
    ).toEqual([
      { reason: 'unknown_user', outcome: 'failure' },
      { reason: 'wrong_password', outcome: 'failure' },
    ]);
  });
});
