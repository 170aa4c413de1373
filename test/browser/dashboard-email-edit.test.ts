import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { dashboardSuite } from '../support/dashboard.ts';
import { makeCertificate, startSmtpServer, type ReceivedMail, type TestCertificate, type TestSmtpServer } from '../support/mail-receivers.ts';

/**
 * The dashboard's E-mail tab editing in Chromium: the application's template and provider, then Acme's own template
 * and provider while both are per tenant, each save read back through the REST API, each refusal shown with the
 * server's message and changing nothing. The provider is a real SMTP server (STARTTLS, AUTH): the test mails the
 * dashboard sends arrive there. Screenshots: test-results/dashboard-email-edit-*.png.
 */
const SMTP_PASSWORD = 'smtp-secret-never-shown';
let certificate: TestCertificate;
let smtp: TestSmtpServer;
let appId: string;
let acme: string;
let globex: string;

const region = (name: string): Locator => dashboard.page.getByRole('region', { name, exact: true });
const field = (section: string, label: string): Locator => region(section).getByLabel(label, { exact: true });
const templateRow = (key: string): Locator => region('Templates').getByRole('row', { name: new RegExp(`^${key}\\b`) });
const get = async (path: string) => {
  const answer = await dashboard.app.http.get(`/applications/${appId}${path}`);
  expect(answer.status).toBe(200);
  return answer.body;
};
const tenantTemplate = async (tenantId: string, key: string) =>
  (await get(`/tenants/${tenantId}/configuration`)).emailTemplates.find((each: { key: string }) => each.key === key);

/** Edits the subject of `key` in "Edit a template" and saves it. */
async function saveSubject(key: string, subject: string): Promise<void> {
  await field('Edit a template', 'Template to edit').selectOption(key);
  await field('Edit a template', 'Subject').fill(subject);
  await region('Edit a template').getByRole('button', { name: 'Save template' }).click();
}

/** Sends a test mail from the dashboard and waits for the provider's acceptance there, then for its arrival. */
async function sendTestMail(to: string): Promise<ReceivedMail> {
  await field('Send a test mail', 'Test recipient').fill(to);
  await region('Send a test mail').getByRole('button', { name: 'Send test mail' }).click();
  await region('Send a test mail').getByText(`The provider accepted the test mail to ${to}.`).waitFor({ timeout: 30_000 });
  await expect.poll(() => smtp.received.some((mail) => mail.to.includes(to)), { timeout: 10_000, interval: 100 }).toBe(true);
  return smtp.received.find((mail) => mail.to.includes(to))!;
}

beforeAll(async () => {
  certificate = makeCertificate();
  smtp = await startSmtpServer({ certificate, users: { mailer: SMTP_PASSWORD } });
});
afterAll(async () => {
  await smtp?.close();
  certificate?.remove();
});

const dashboard = dashboardSuite({
  // The SMTP server is on 127.0.0.1, which the API refuses as a provider's host unless allowed.
  config: () => ({ email: { ...loadConfig({}).email, allowPrivateHosts: true, smtpCaFile: certificate.caFile, pollMs: 200 } }),
  tab: 'E-mail',
  setup: async (app) => {
    appId = app.root.applicationId;
    acme = await app.createTenant('Acme');
    globex = await app.createTenant('Globex');
    const tenancyConfig = { emailTemplatesScope: 'tenant', emailProviderScope: 'tenant' };
    expect((await app.http.patch(`/applications/${appId}`, { tenancyConfig })).status).toBe(200);
  },
});

describe("the E-mail tab's editing in Chromium", () => {
  it("previews and saves the application's password_reset subject, and lists the template's variables", async () => {
    const builtIn = await get('/email/templates/password_reset');
    await field('Edit a template', 'Template to edit').selectOption('password_reset');
    expect(await field('Edit a template', 'Subject').inputValue()).toBe(builtIn.subject);
    const variables = await region('Edit a template').getByRole('listitem').allTextContents();
    expect(variables).toEqual(['application.name', 'tenant.name', 'tenant.slug', 'user.name', 'user.email', 'branding', 'link', 'expiresInMinutes', 'expiresIn']);

    const subject = 'Reset your {{ application.name }} password, {{ user.name }}';
    await field('Edit a template', 'Subject').fill(subject);
    await region('Edit a template').getByRole('button', { name: 'Preview' }).click();
    await region('Preview').getByText('Reset your My application password, Ada Lovelace', { exact: true }).waitFor();
    expect(await region('Preview').textContent()).toContain('<!doctype html>');
    // A preview stores nothing.
    expect(await get('/email/templates/password_reset')).toEqual(builtIn);

    await region('Edit a template').getByRole('button', { name: 'Save template' }).click();
    await region('Edit a template').getByRole('status').filter({ hasText: 'Saved the password_reset template.' }).waitFor();
    expect(await templateRow('password_reset').textContent()).toContain(subject);
    expect(await field('Edit a template', 'Subject').inputValue()).toBe(subject);
    const stored = await get('/email/templates/password_reset');
    expect(stored.subject).toBe(subject);
    expect(stored.text).toContain('{{ link }}');
    await dashboard.page.screenshot({ path: 'test-results/dashboard-email-edit-template.png', fullPage: true });
  });

  it('shows the refusal of a template with a Liquid syntax error, and stores nothing', async () => {
    const before = await get('/email/templates/welcome');
    await field('Edit a template', 'Template to edit').selectOption('welcome');
    await field('Edit a template', 'HTML body').fill('<p>{% if user.name %}Hello</p>');
    await region('Edit a template').getByRole('button', { name: 'Save template' }).click();
    const alert = region('Edit a template').getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^HTML body is not a valid template: /);
    expect(await get('/email/templates/welcome')).toEqual(before);

    // The refused edit is unsaved: another template, or another tab, asks first, and keeps it when declined.
    const asked = dashboard.answerNextDialog('dismiss');
    await field('Edit a template', 'Template to edit').selectOption('password_reset');
    expect(await asked).toBe('Discard the changes you have not saved?');
    expect(await field('Edit a template', 'Template to edit').inputValue()).toBe('welcome');
    expect(await field('Edit a template', 'HTML body').inputValue()).toBe('<p>{% if user.name %}Hello</p>');
    void dashboard.answerNextDialog();
    await field('Edit a template', 'Template to edit').selectOption('password_reset');
    await field('Edit a template', 'Template to edit').selectOption('welcome');
    expect(await field('Edit a template', 'HTML body').inputValue()).toBe(before.html);
  });

  it('warns that a test mail through the built-in sender, without SMTP_URL, was not delivered, and shows the mail kept', async () => {
    await field('Send a test mail', 'Test recipient').fill('nowhere@example.com');
    await region('Send a test mail').getByRole('button', { name: 'Send test mail' }).click();
    const warning = region('Send a test mail').getByRole('alert');
    await warning.waitFor({ timeout: 30_000 });
    expect(await warning.textContent()).toBe('Not delivered: the built-in sender has no SMTP_URL; the mail is kept in the outbox.');
    expect(await region('Send a test mail').getByRole('status').count()).toBe(0);
    await region('Send a test mail').getByText('The mail in the outbox').click();
    expect(await region('Send a test mail').getByLabel('The undelivered mail').textContent()).toMatch(/^Subject: \S.*\n\n\S/);
  });

  it("sets the application's SMTP provider, whose test mail reaches the server; an empty password keeps the stored one", async () => {
    await field('Change the provider', 'Service').selectOption({ label: 'SMTP' });
    await field('Change the provider', 'From address').fill('mail@example.com');
    await field('Change the provider', 'From name').fill('Example Mail');
    await field('Change the provider', 'SMTP host').fill('127.0.0.1');
    await field('Change the provider', 'SMTP port').fill(String(smtp.port));
    await field('Change the provider', 'SMTP user name').fill('mailer');
    await field('Change the provider', 'Password').fill(SMTP_PASSWORD);
    await region('Change the provider').getByRole('button', { name: 'Save provider' }).click();
    await region('Change the provider').getByRole('status').filter({ hasText: 'Saved the e-mail provider.' }).waitFor();

    const stored = await get('/email/provider');
    expect(stored).toMatchObject({
      type: 'smtp',
      fromAddress: 'mail@example.com',
      fromName: 'Example Mail',
      smtp: { host: '127.0.0.1', port: smtp.port, username: 'mailer', security: 'starttls' },
      secretsSet: ['password'],
    });
    expect(await region('Provider').textContent()).toContain(`127.0.0.1:${smtp.port} (starttls), user mailer`);
    // Write-only: the field is empty again, and nothing on the page holds the password.
    expect(await field('Change the provider', 'Password').inputValue()).toBe('');
    expect(await dashboard.page.content()).not.toContain(SMTP_PASSWORD);
    await region('Change the provider').getByText('Write-only: one is stored. Leave this empty to keep it.').waitFor();

    const first = await sendTestMail('first-test@example.com');
    expect(first.user).toBe('mailer');
    expect(first.secure).toBe(true);
    expect(first.header('from')).toBe('Example Mail <mail@example.com>');

    await field('Change the provider', 'From name').fill('Example Notices');
    await region('Change the provider').getByRole('button', { name: 'Save provider' }).click();
    await expect.poll(async () => (await get('/email/provider')).fromName, { timeout: 10_000, interval: 100 }).toBe('Example Notices');
    expect((await get('/email/provider')).secretsSet).toEqual(['password']);
    const second = await sendTestMail('second-test@example.com');
    expect(second.user).toBe('mailer');
    expect(second.header('from')).toBe('Example Notices <mail@example.com>');
    await dashboard.page.screenshot({ path: 'test-results/dashboard-email-edit-provider.png', fullPage: true });
  });

  it('shows the refusal of a bad From address, and keeps the stored provider', async () => {
    const before = await get('/email/provider');
    await field('Change the provider', 'From address').fill('not-an-address');
    await region('Change the provider').getByRole('button', { name: 'Save provider' }).click();
    const alert = region('Change the provider').getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('From address must be an e-mail address');
    expect(await get('/email/provider')).toEqual(before);
    // The draft stays for correcting.
    expect(await field('Change the provider', 'From address').inputValue()).toBe('not-an-address');
  });

  it("gives Acme its own welcome subject (Customized, the others inherited), which Globex does not get, and removes it", async () => {
    const applicationSubject = (await get('/email/templates/welcome')).subject;
    // The refused From address above is unsaved: another tenant drops it once the operator agrees.
    const asked = dashboard.answerNextDialog();
    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Acme' });
    expect(await asked).toBe('Discard the changes you have not saved?');
    await templateRow('welcome').getByText('Inherited', { exact: true }).waitFor();
    await saveSubject('welcome', 'Welcome to Acme');
    await templateRow('welcome').getByText('Customized', { exact: true }).waitFor();
    expect(await templateRow('welcome').textContent()).toContain('Welcome to Acme');
    expect(await region('Templates').getByText('Customized', { exact: true }).count()).toBe(1);
    expect(await region('Templates').getByText('Inherited', { exact: true }).count()).toBe(11);
    expect(await tenantTemplate(acme, 'welcome')).toMatchObject({ source: 'customized', subject: 'Welcome to Acme' });
    expect(await tenantTemplate(acme, 'password_reset')).toMatchObject({ source: 'inherited' });
    expect((await get('/email/templates/welcome')).subject).toBe(applicationSubject);
    await dashboard.page.screenshot({ path: 'test-results/dashboard-email-edit-tenant-template.png', fullPage: true });

    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Globex' });
    await templateRow('welcome').getByText('Inherited', { exact: true }).waitFor();
    expect(await templateRow('welcome').textContent()).toContain(applicationSubject);
    expect(await region('Templates').getByText('Customized', { exact: true }).count()).toBe(0);
    expect(await tenantTemplate(globex, 'welcome')).toMatchObject({ source: 'inherited', subject: applicationSubject });

    await dashboard.page.getByLabel('Tenant').selectOption({ label: 'Acme' });
    await templateRow('welcome').getByText('Customized', { exact: true }).waitFor();
    await field('Edit a template', 'Template to edit').selectOption('welcome');
    expect(await field('Edit a template', 'Subject').inputValue()).toBe('Welcome to Acme');
    void dashboard.answerNextDialog();
    await templateRow('welcome').getByRole('button', { name: 'Remove tenant override' }).click();
    await templateRow('welcome').getByText('Inherited', { exact: true }).waitFor();
    // The editor starts again from the template the tenant now inherits.
    expect(await field('Edit a template', 'Subject').inputValue()).toBe(applicationSubject);
    expect(await tenantTemplate(acme, 'welcome')).toMatchObject({ source: 'inherited', subject: applicationSubject });
  });

  it("refuses Acme its own SMTP provider without the password it cannot inherit, then sets it: its test mail comes from Acme", async () => {
    const provider = region('Provider');
    await provider.getByText('Inherited', { exact: true }).waitFor();
    // The form starts from the inherited provider, whose password is the application's, not Acme's to keep.
    expect(await field('Change the provider', 'From address').inputValue()).toBe('mail@example.com');
    await region('Change the provider').getByText('Write-only: it is never shown again once saved.').waitFor();

    await field('Change the provider', 'From address').fill('hello@acme.example');
    await field('Change the provider', 'From name').fill('Acme');
    await region('Change the provider').getByRole('button', { name: 'Save provider' }).click();
    const alert = region('Change the provider').getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Password is required for type smtp with a username');
    expect(await get(`/tenants/${acme}/email/provider`)).toMatchObject({ source: 'inherited', fromAddress: 'mail@example.com' });

    await field('Change the provider', 'Password').fill(SMTP_PASSWORD);
    await region('Change the provider').getByRole('button', { name: 'Save provider' }).click();
    await provider.getByText('Customized', { exact: true }).waitFor();
    expect(await get(`/tenants/${acme}/email/provider`)).toMatchObject({
      source: 'customized',
      type: 'smtp',
      fromAddress: 'hello@acme.example',
      fromName: 'Acme',
      secretsSet: ['password'],
    });
    expect(await get(`/tenants/${globex}/email/provider`)).toMatchObject({ source: 'inherited', fromAddress: 'mail@example.com' });
    expect(await get('/email/provider')).toMatchObject({ fromAddress: 'mail@example.com', fromName: 'Example Notices' });

    const mail = await sendTestMail('acme-test@example.com');
    expect(mail.user).toBe('mailer');
    expect(mail.header('from')).toBe('Acme <hello@acme.example>');
    await dashboard.page.screenshot({ path: 'test-results/dashboard-email-edit-tenant-provider.png', fullPage: true });
  });
});
