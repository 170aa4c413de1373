import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClientCallback, type ClientCallback } from '../support/chromium.ts';
import { dashboardSuite, OPERATOR, openTab } from '../support/dashboard.ts';
import { decodedMail, startMailSink, type MailSink } from '../support/mail-receivers.ts';
import { authorizationRequest, createTestClient, discover } from '../support/oauth.ts';

/**
 * The dashboard's Invitations and Sessions tabs in Chromium. An operator invites an address to Acme with a role (the
 * mail reaches an SMTP server with its link), is refused a second invitation of it, resends it (a new link, the old
 * one dead) and revokes it; then sees a user's real browser sign-in to Acme among the sessions, and revokes it (the
 * session is gone and its refresh token refused). Screenshots: test-results/dashboard-invitations.png, -sessions.png.
 */
const INVITEE = 'newcomer@acme.example';
const MEMBER = { email: 'uma@acme.example', password: 'Correct-Horse-9' };

let mailSink: MailSink;
let clientSide: ClientCallback;
let appId: string;
let acme: string;
let staffRole: string;
let acmePortal: string;

beforeAll(async () => {
  clientSide = await startClientCallback();
  mailSink = await startMailSink();
});
afterAll(async () => {
  await mailSink?.close();
  await clientSide?.close();
});

const dashboard = dashboardSuite({
  config: () => ({ email: mailSink.email }),
  setup: async (app) => {
    appId = app.root.applicationId;
    acme = await app.createTenant('Acme');
    const globex = await app.createTenant('Globex');
    const role = await app.http.post(`/applications/${appId}/tenants/${acme}/roles`, { key: 'acme_staff', name: 'Acme staff', permissions: ['users:read'] });
    expect(role.status).toBe(201);
    staffRole = role.body.id;
    const portal = async (tenantId: string, name: string) =>
      (await app.http.post(`/applications/${appId}/tenants/${tenantId}/oauth-clients`, { name, type: 'web', redirectUris: ['https://portal.example.com/cb'] })).body.clientId as string;
    acmePortal = await portal(acme, 'Acme portal');
    await portal(globex, 'Globex portal');
  },
});

/** Accepts the next confirmation the page asks, and answers its question. */
describe('the Invitations tab of the dashboard in Chromium', () => {
  const invitations = async () => (await dashboard.app.http.get('/invitations')).body.data as { id: string; email: string; tenantId: string; roleIds: string[]; clientId: string | null; status: string; expiresAt: string; invitedBy: { type: string } }[];
  const deliveries = async () => (await dashboard.app.http.get(`/applications/${appId}/tenants/${acme}/email/deliveries?templateKey=invitation&to=${encodeURIComponent(INVITEE)}`)).body.data as unknown[];
  /** The invitation links the SMTP server received for INVITEE, once it has `count` of them (the outbox sends after the commit). */
  const mailedLinks = async (count: number) => {
    await expect.poll(() => mailSink.to(INVITEE).length, { timeout: 30_000, interval: 100 }).toBe(count);
    return mailSink.to(INVITEE).map((mail) => {
      expect(mail.header('subject')).toBe(`${OPERATOR.email} invited you to Acme`);
      return /http\S+\/invitation\?token=[\w-]+/.exec(decodedMail(mail.raw))?.[0];
    });
  };
  const inviteeRow = () => dashboard.page.getByRole('row', { name: new RegExp(INVITEE) });
  const invite = async () => {
    await dashboard.page.getByLabel('E-mail').fill(INVITEE);
    await dashboard.page.getByLabel('Tenant', { exact: true }).selectOption({ label: 'Acme' });
    await dashboard.page.getByRole('checkbox', { name: 'Acme staff' }).check();
    await dashboard.page.getByLabel('Once accepted, continue to (optional)').selectOption({ label: 'Acme portal' });
    await dashboard.page.getByLabel('Link valid for (days)').fill('3');
    await dashboard.page.getByRole('button', { name: 'Invite', exact: true }).click();
  };

  it('shows none yet, and offers the roles of the tenant chosen', async () => {
    await openTab(dashboard.page, 'Invitations');
    await dashboard.page.getByText('No one has been invited yet.').waitFor();
    expect(await dashboard.page.getByRole('checkbox').count()).toBe(0);
    // The link's lifetime says the API's range (1 to 30 days), as the dashboard's other number fields do.
    const hint = await dashboard.page.getByLabel('Link valid for (days)').getAttribute('aria-describedby');
    expect(await dashboard.page.locator(`[id="${hint}"]`).textContent()).toBe('1 to 30.');
    await dashboard.page.getByLabel('Tenant', { exact: true }).selectOption({ label: 'Globex' });
    await dashboard.page.getByRole('checkbox', { name: 'Application admin' }).waitFor();
    expect(await dashboard.page.getByRole('checkbox', { name: 'Acme staff' }).count()).toBe(0);
    // The clients it may lead to: the tenant's own (and the application's), not another tenant's.
    const clients = await dashboard.page.getByLabel('Once accepted, continue to (optional)').locator('option').allTextContents();
    expect(clients).toContain('Globex portal');
    expect(clients).not.toContain('Acme portal');
  });

  it('invites an address to Acme with a role, and mails it the link', async () => {
    await invite();
    await dashboard.page.getByRole('status').filter({ hasText: `An invitation to Acme was created for ${INVITEE}, and its mail queued for delivery.` }).waitFor();
    await inviteeRow().waitFor();
    const cells = await inviteeRow().getByRole('cell').allTextContents();
    expect([...cells.slice(0, 3), ...cells.slice(4)]).toEqual(['Acme', 'Acme staff', 'Pending', 'ops@example.com', 'ResendRevoke']);
    await dashboard.page.screenshot({ path: 'test-results/dashboard-invitations.png', fullPage: true });

    const [invitation] = await invitations();
    expect(invitation).toMatchObject({ email: INVITEE, tenantId: acme, roleIds: [staffRole], clientId: acmePortal, status: 'pending', invitedBy: { type: 'operator' } });
    const days = (Date.parse(invitation!.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.99);
    expect(days).toBeLessThanOrEqual(3);
    const [link] = await mailedLinks(1);
    expect(link?.startsWith(dashboard.app.gatehouse.services.config.publicUrl)).toBe(true);
    expect((await fetch(link!)).status).toBe(200);
  });

  it('shows the refusal of a second invitation of the address, and makes none', async () => {
    await invite();
    await dashboard.page.getByRole('alert').filter({ hasText: 'This address has a pending invitation to the tenant: resend it' }).waitFor();
    expect(await inviteeRow().count()).toBe(1);
    expect(await invitations()).toHaveLength(1);
    expect(await deliveries()).toHaveLength(1);
  });

  it('resends it: a new link is mailed and the previous one no longer works', async () => {
    await inviteeRow().getByRole('button', { name: 'Resend' }).click();
    await inviteeRow().getByRole('status').filter({ hasText: `A new link was queued for ${INVITEE}` }).waitFor();
    const [first, second] = await mailedLinks(2);
    expect(second).not.toBe(first);
    expect((await fetch(first!)).status).toBe(404);
    expect((await fetch(second!)).status).toBe(200);
    expect(await invitations()).toMatchObject([{ status: 'pending' }]);
  });

  it('revokes it once the operator confirms: Revoked, its link dead', async () => {
    const question = dashboard.answerNextDialog();
    await inviteeRow().getByRole('button', { name: 'Revoke' }).click();
    expect(await question).toBe(`Revoke the invitation of ${INVITEE} to Acme? Its link will no longer work.`);
    await inviteeRow().getByRole('status').filter({ hasText: `The invitation of ${INVITEE} is revoked.` }).waitFor();
    expect(await inviteeRow().getByRole('cell').nth(2).textContent()).toBe('Revoked');
    expect(await inviteeRow().getByRole('button').count()).toBe(0);
    // The earlier refusal of a second invitation no longer holds.
    expect(await dashboard.page.getByRole('alert').filter({ hasText: 'pending invitation' }).count()).toBe(0);
    expect(await invitations()).toMatchObject([{ status: 'revoked' }]);
    const [, link] = await mailedLinks(2);
    expect((await fetch(link!)).status).toBe(410);
  });

  it('filters by status', async () => {
    await dashboard.page.getByLabel('Status').selectOption({ label: 'Pending' });
    await dashboard.page.getByText('No invitation is pending.').waitFor();
    await dashboard.page.getByLabel('Status').selectOption({ label: 'Revoked' });
    await inviteeRow().waitFor();
  });
});

describe('the Sessions tab of the dashboard in Chromium', () => {
  let config: oidc.Configuration;
  let refreshToken: string;
  let sessionId: string;
  const memberRow = () => dashboard.page.getByRole('row', { name: new RegExp(MEMBER.email) });
  const filterSessions = async (address: string) => {
    await dashboard.page.getByLabel("User's e-mail").fill(address);
    await dashboard.page.getByRole('button', { name: 'Filter' }).click();
  };

  beforeAll(async () => {
    expect((await dashboard.app.http.post('/users', { ...MEMBER, tenantId: acme })).status).toBe(201);
    const client = await createTestClient(dashboard.app, { type: 'web', redirectUris: [clientSide.redirectUri] });
    config = await discover(dashboard.app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  });

  it("lists a user's sign-in to Acme made in a browser", async () => {
    const { url, verifier, state } = await authorizationRequest(
      config,
      { redirectUri: clientSide.redirectUri, resource: '' },
      { scope: 'openid offline_access', prompt: 'consent', tenant: acme },
    );
    const context = await dashboard.page.context().browser()!.newContext();
    try {
      const member = await context.newPage();
      await member.goto(url.href);
      await member.getByLabel('Email address').fill(MEMBER.email);
      await member.getByLabel('Password').fill(MEMBER.password);
      await Promise.all([member.waitForURL(`${clientSide.redirectUri}**`), member.getByRole('button', { name: 'Sign in' }).click()]);
      const tokens = await oidc.authorizationCodeGrant(config, new URL(member.url()), { pkceCodeVerifier: verifier, expectedState: state });
      expect(tokens.refresh_token).toEqual(expect.any(String));
      refreshToken = tokens.refresh_token!;
    } finally {
      await context.close();
    }

    // The refused invitation is still typed in its form: leaving it asks, and is agreed to.
    const asked = dashboard.answerNextDialog();
    await openTab(dashboard.page, 'Sessions');
    expect(await asked).toBe('Discard the changes you have not saved?');
    await memberRow().waitFor();
    const cells = await memberRow().getByRole('cell').allTextContents();
    expect(cells.slice(0, 4)).toEqual(['Acme', 'test web client', 'password', '127.0.0.1']);
    expect(cells[4]).toContain('Chrome');
    expect(cells[8]).toBe('Revoke');
    await dashboard.page.screenshot({ path: 'test-results/dashboard-sessions.png', fullPage: true });
    const sessions = (await dashboard.app.http.get('/sessions')).body.data as { id: string; tenantId: string; methods: string[] }[];
    expect(sessions).toMatchObject([{ tenantId: acme, methods: ['password'] }]);
    sessionId = sessions[0]!.id;
  });

  it("filters by a user's address, and says when no user has it, leaving no one's sessions on screen", async () => {
    await filterSessions(MEMBER.email);
    await memberRow().waitFor();
    await filterSessions('nobody@acme.example');
    await dashboard.page.getByRole('alert').filter({ hasText: 'No user of this application has the address nobody@acme.example.' }).waitFor();
    expect(await memberRow().count()).toBe(0);
    await filterSessions(MEMBER.email);
    await dashboard.page.getByRole('alert').waitFor({ state: 'detached' });
    await memberRow().waitFor();
  });

  it('revokes it on its tenant’s path once the operator confirms: the session is gone and its refresh token refused', async () => {
    const question = dashboard.answerNextDialog();
    const revocation = dashboard.page.waitForRequest((request) => request.postData()?.includes('RevokeSession') === true);
    await memberRow().getByRole('button', { name: 'Revoke' }).click();
    expect(await question).toBe(`Revoke ${MEMBER.email}'s sign-in to Acme (test web client)? Its tokens stop working at once; the browser's sign-ins to other tenants stay.`);
    // A tenant's sign-in is revoked as its tenant's path does: the browser's sign-ins to other tenants stay.
    expect((await revocation).postDataJSON()).toMatchObject({ variables: { tenantId: acme, sessionId } });
    await dashboard.page.getByRole('status').filter({ hasText: `${MEMBER.email}'s sign-in to Acme is revoked.` }).waitFor();
    await dashboard.page.getByText(`${MEMBER.email} has no live session.`).waitFor();
    expect((await dashboard.app.http.get(`/sessions/${sessionId}`)).status).toBe(404);
    expect((await dashboard.app.http.get('/sessions')).body.data).toEqual([]);
    await expect(oidc.refreshTokenGrant(config, refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('drops the revocation notice once another filter is applied', async () => {
    await filterSessions('');
    await dashboard.page.getByText('No one is signed in to this application.').waitFor();
    expect(await dashboard.page.getByRole('status').filter({ hasText: 'is revoked' }).count()).toBe(0);
  });
});
