import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { Application, EmailDelivery, Setting, Tenant } from '../../db/entities/index.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { rateLimitRefusal } from '../../observability/metrics.ts';
import type { PageOrder } from '../../db/page-query.ts';
import type { SettingFeature } from '../../db/entities/setting.entity.ts';
import { invalid, notFound } from '../../errors.ts';
import { normalizeEmail } from '../users/email-key.ts';
import { firstIdAt, newId } from '../../ids.ts';
import type { DomainServices } from '../../services.ts';
import { recordAudit, recordAuditPerRow, type AuditActor } from '../audit/audit.ts';
import { normalize as brandingValue, type BrandingValue } from '../branding/branding.ts';
import { readableColors } from '../branding/readable-colors.ts';
import { paginate, type Page, type PageArgs, type Row, scopedList } from '../pagination.ts';
import { tenantMayCustomize } from '../tenancy/settings.ts';
import { email } from '../validate.ts';
import { renderTemplate } from './render.ts';
import { DEFAULT_LOCALE, type Locale } from '../locales.ts';
import { defaultTemplate, isTemplateKey, partsFor, TEMPLATE_KEYS, withExpiresIn, type TemplateContent, type TemplateKey } from './template-defaults.ts';

/** Every mail is written in the transaction of the change that causes it, so it exists exactly when that change
 *  committed; deliver.ts sends it. */
export const DELIVERY_STATUSES = ['queued', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Not one of the 12 templates, so not customizable. */
export const TEST_MAIL_KEY = 'test';
/** Words of ours only: a test mail goes to any address, so an admin-written name in it would make the service a relay
 *  for their text. */
const TEST_MAIL: TemplateContent = {
  subject: 'Test e-mail from Gatehouse',
  text: 'This is a test e-mail, sent through an application’s e-mail provider to check that it works. It does.\n',
  html: '<p>This is a test e-mail, sent through an application’s e-mail provider to check that it works. It does.</p>\n',
};

export type DeliveryKey = TemplateKey | typeof TEST_MAIL_KEY;

export type DeliveryRow = Row<EmailDelivery>;

export interface Mail {
  templateKey: DeliveryKey;
  to: string;
  /** Its templates and provider apply; null: the application's. */
  tenantId: string | null;
  variables?: Record<string, unknown>;
  /** For a built-in template (default English); a stored template is used as it is. */
  locale?: Locale;
}

export type MailSender = AuditActor & { readonly services: DomainServices };

/** Read through `em`, the caller's transaction: on the embedded database a read on another connection would wait for
 *  ever. The tenant's override when the application lets tenants customize the feature; undefined: default. */
export async function settingIn(em: EntityManager, application: Application, tenantId: string | null, feature: SettingFeature, key: string): Promise<Setting | undefined> {
  // `tenant_id in (null)` matches no row: the application's row is asked for with `is null`.
  const owners = tenantId !== null && tenantMayCustomize(application, feature) ? { $or: [{ tenantId: null }, { tenantId }] } : { tenantId: null };
  const rows = await em.find(Setting, { applicationId: application.id, feature, key, ...owners }, { filters: false });
  return rows.find((row) => row.tenantId !== null) ?? rows.find((row) => row.tenantId === null);
}

async function content(em: EntityManager, application: Application, tenantId: string | null, key: DeliveryKey, variables: Record<string, unknown>, locale?: Locale): Promise<TemplateContent> {
  if (key === TEST_MAIL_KEY) return TEST_MAIL;
  const stored = ((await settingIn(em, application, tenantId, 'email_template', key))?.value ?? {}) as Partial<TemplateContent>;
  const fallback = defaultTemplate(key, locale);
  return partsFor(key, { subject: stored.subject ?? fallback.subject, html: stored.html ?? fallback.html, text: stored.text ?? fallback.text }, fallback, variables);
}

/** The worker reads it again when it sends. */
export async function providerTypeIn(em: EntityManager, application: Application, tenantId: string | null): Promise<string> {
  const row = await settingIn(em, application, tenantId, 'email_provider', '');
  return ((row?.value ?? {}) as { type?: string }).type ?? 'gatehouse';
}

export const tenantVariable = (tenant: Pick<Tenant, 'name' | 'slug'> | null) => (tenant === null ? null : { name: tenant.name, slug: tenant.slug });

/** With the colours that read on it (`readable`: text, accent, onPrimary), which the built-in mails draw their text in. */
export const brandingVariable = (branding: BrandingValue) => ({ ...branding, readable: readableColors(branding.colors) });

export interface RenderedMail {
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly templateKey: DeliveryKey;
  readonly to: string;
  readonly subject: string;
  readonly textBody: string;
  readonly htmlBody: string;
  readonly providerType: string;
}

/** Rendering may wait long for a render worker under load: a caller that can renders before its transaction
 *  (sendTestEmail), which would otherwise hold its connection meanwhile. */
export async function renderMail(em: EntityManager, sender: MailSender, mail: Mail): Promise<RenderedMail> {
  const to = email('to', mail.to);
  const application = await em.findOneOrFail(Application, { id: sender.applicationId }, { filters: false });
  const tenant = mail.tenantId === null ? null : await em.findOne(Tenant, { applicationId: application.id, id: mail.tenantId }, { filters: false });
  if (mail.tenantId !== null && tenant === null) throw notFound('Tenant', 'tenantId');
  const variables = withExpiresIn(
    {
      application: { name: application.name },
      tenant: tenantVariable(tenant),
      branding: brandingVariable(brandingValue((await settingIn(em, application, mail.tenantId, 'branding', ''))?.value)),
      ...mail.variables,
    },
    mail.locale ?? DEFAULT_LOCALE,
  );
  const rendered = await renderTemplate(await content(em, application, mail.tenantId, mail.templateKey, variables, mail.locale), variables);
  return {
    applicationId: application.id,
    tenantId: mail.tenantId,
    templateKey: mail.templateKey,
    to,
    subject: rendered.subject,
    textBody: rendered.text,
    htmlBody: rendered.html,
    providerType: await providerTypeIn(em, application, mail.tenantId),
  };
}

export function queueRendered(em: EntityManager, sender: MailSender, mail: RenderedMail): EmailDelivery {
  const id = newId();
  const delivery = em.create(EmailDelivery, {
    applicationId: mail.applicationId,
    id,
    tenantId: mail.tenantId,
    templateKey: mail.templateKey,
    toAddress: mail.to,
    toKey: normalizeEmail(mail.to),
    subject: mail.subject,
    textBody: mail.textBody,
    htmlBody: mail.htmlBody,
    messageId: `<${id}@${new URL(sender.services.config.publicUrl).hostname}>`,
    status: 'queued',
    attempts: 0,
    nextAttemptAt: new Date(),
    providerType: mail.providerType,
  });
  recordAudit(em, sender, {
    action: 'email_delivery.queued',
    targetType: 'email_delivery',
    targetId: id,
    tenantId: mail.tenantId,
    after: { templateKey: mail.templateKey, to: mail.to },
  });
  return delivery;
}

/** For a flow whose mail carries what the caller's transaction makes (a link it issues). The caller wakes the worker
 *  after committing; else the worker's poll finds it. */
export async function enqueueMail(em: EntityManager, sender: MailSender, mail: Mail): Promise<EmailDelivery> {
  return queueRendered(em, sender, await renderMail(em, sender, mail));
}

/** Of a delivery deleted with its tenant (owned-rows.ts): never its bodies. */
export const deliverySnapshotSql = (r: string) =>
  `jsonb_build_object('templateKey', ${r}.template_key, 'to', ${r}.to_address, 'status', ${r}.status, 'attempts', ${r}.attempts)`;

/** Why a mail still queued is not sent: what it carries no longer works, or nobody is there to use it. Its `lastError`. */
export const WITHDRAWN_REASONS = {
  revoked: 'withdrawn: the invitation was revoked before this mail was sent; its link no longer works',
  resent: 'withdrawn: the invitation was resent before this mail was sent; its link was replaced by the newer mail’s',
  expired: 'withdrawn: the link or code it carries expired before this mail was sent; it no longer works',
  user_suspended: 'withdrawn: the account was suspended before this mail was sent; the links and codes mailed to it no longer work',
  user_deleted: 'withdrawn: the account was deleted before this mail was sent',
  email_changed: 'withdrawn: the account’s address changed before this mail was sent; the links and codes mailed to the old address no longer work',
  email_change_replaced: 'withdrawn: another change of the account’s address was asked before this mail was sent; the link it carries no longer works',
  email_change_ended: 'withdrawn: the account’s address changed before this mail was sent; the link it carries, to confirm another address, no longer works',
} as const;

/** An invitation's mails, or an account's other than its invitations' (whose link outlives a suspension): all of them,
 *  those to `to`, its address before a change, or its confirmations of a new address (a newer one asked, or the address
 *  changed: their links end with it). */
type Withdrawn =
  | { readonly invitationId: string; readonly reason: 'revoked' | 'resent' }
  | { readonly userId: string; readonly reason: 'user_suspended' | 'user_deleted' }
  | { readonly userId: string; readonly reason: 'email_changed'; readonly to: string }
  | { readonly userId: string; readonly reason: 'email_change_replaced' | 'email_change_ended' };

/** Of the `email_change` mails, only the confirmation to the new address carries a link that expires (emailChangeMail):
 *  the notice to the address left has none, and its news outlives a newer change. */
const CONFIRMS_NEW_ADDRESS = ` and d.template_key = 'email_change' and d.link_expires_at is not null`;

const whoseWithdrawn = (withdrawn: Withdrawn): string => {
  if ('invitationId' in withdrawn) return 'd.invitation_id = ?';
  const account = 'd.user_id = ? and d.invitation_id is null';
  if ('to' in withdrawn) return `${account} and d.to_key = ?`;
  return withdrawn.reason === 'email_change_replaced' || withdrawn.reason === 'email_change_ended' ? `${account}${CONFIRMS_NEW_ADDRESS}` : account;
};

/**
 * In the transaction that ends the mails' links (an invitation's revoke or resend, a user's suspension or deletion, a
 * new address), so the withdrawal commits with it. A mail no attempt holds is `failed` at once, never claimed
 * (`email_delivery.withdrawn`); one under an attempt's lease is marked, and that attempt's outcome decides (deliver.ts):
 * `sent` stays (it may have left), any other is final, with this reason. Mails already sent or failed are left as they are.
 */
export async function withdrawQueuedMail(em: EntityManager, actor: AuditActor, withdrawn: Withdrawn): Promise<void> {
  const why = WITHDRAWN_REASONS[withdrawn.reason];
  const whose = whoseWithdrawn(withdrawn);
  const leased = (r: string) => `(${r}.claimed_until is not null and ${r}.claimed_until > now())`;
  await recordAuditPerRow(em, actor, { action: 'email_delivery.withdrawn', targetType: 'email_delivery' }, {
    tenantPerRow: true,
    ctes: `marked as (
      update email_delivery as d set withdrawn = ?,
             status = case when ${leased('d')} then d.status else 'failed' end,
             last_error = case when ${leased('d')} then d.last_error else ? end
       where @owner(d) and ${whose} and d.status = 'queued'
      returning d.id, d.tenant_id, d.template_key, d.to_address, d.status, d.attempts, d.last_error),
    changed as (
      select m.id::text as target_id, m.tenant_id, jsonb_build_object('status', 'queued') as before,
             ${deliverySnapshotSql('m')} || jsonb_build_object('lastError', m.last_error) as after
        from marked as m where m.status = 'failed')`,
    params: [why, why, ...('invitationId' in withdrawn ? [withdrawn.invitationId] : [withdrawn.userId]), ...('to' in withdrawn ? [normalizeEmail(withdrawn.to)] : [])],
  });
}

export interface DeliveryFilters {
  status?: string | null;
  templateKey?: string | null;
  to?: string | null;
}

/** A tenant scope sees only its own (the `tenant` filter). Oldest first unless `order` is `newest`. */
export async function listDeliveries(scope: Scope, filters: DeliveryFilters, args: PageArgs & { order?: PageOrder | null }): Promise<Page<DeliveryRow>> {
  const where: Record<string, string> = {};
  if (filters.status != null) {
    if (!(DELIVERY_STATUSES as readonly string[]).includes(filters.status)) throw invalid('status', `status must be one of ${DELIVERY_STATUSES.join(', ')}`);
    where['status'] = filters.status;
  }
  if (filters.templateKey != null) {
    if (!isTemplateKey(filters.templateKey) && filters.templateKey !== TEST_MAIL_KEY) {
      throw invalid('templateKey', `templateKey must be one of ${[...TEMPLATE_KEYS, TEST_MAIL_KEY].join(', ')}`);
    }
    where['templateKey'] = filters.templateKey;
  }
  const address = filters.to == null ? undefined : email('to', filters.to);
  const to = address === undefined ? undefined : normalizeEmail(address);
  // By the mailbox, as the users' e-mail filter (any case, the domain in Punycode or Unicode): its key; a mail older than
  // migration 0071 has none, and is found by its address in any case (migration 0040's index).
  const recipient =
    address === undefined ? {} : { [raw((r: string) => `(${r}.to_key = ? or (${r}.to_key is null and lower(${r}.to_address) = lower(?)))`, [to, address])]: [] };
  // The filters are part of the list's identity: a cursor of one filtered list is refused in another.
  const list = scopedList(scope, `email-deliveries:${JSON.stringify([where['status'], where['templateKey'], to])}`);
  return paginate(scope.em, EmailDelivery, { ...where, ...recipient }, args, scope.services.cursors, list, args.order ?? 'oldest');
}

export const WITHHELD_SUBJECT = 'Not shown: sent through a provider, its subject may carry a single-use code or link.';
export const WITHHELD_BODY = 'Not shown: this mail went to its recipient through a provider, and its single-use links or codes are theirs alone.';

/** Subject and bodies are shown whole where the outbox is where the mail goes (the built-in sender without SMTP_URL)
 *  and for the test mail; else withheld: a flow's mail carries a single-use link or code (in the subject too: the
 *  built-in `email_otp`'s), with which a credential holding `email:read` would take over the recipient's account. */
export function shownContent(delivery: EmailDelivery, services: DomainServices): { subject: string; text: string; html: string } {
  const keptHere = delivery.providerType === 'gatehouse' && services.config.email.smtpUrl === undefined;
  if (keptHere || delivery.templateKey === TEST_MAIL_KEY) return { subject: delivery.subject, text: delivery.textBody, html: delivery.htmlBody };
  return { subject: WITHHELD_SUBJECT, text: WITHHELD_BODY, html: `<p>${WITHHELD_BODY}</p>` };
}

export async function getDelivery(scope: Scope, deliveryId: string): Promise<EmailDelivery> {
  const delivery = await scope.em.findOne(EmailDelivery, { id: deliveryId });
  if (delivery === null) throw notFound('Delivery', 'deliveryId');
  return delivery;
}

/** The advisory lock counting an application's mails of `templateKeys` (to `to`'s normal form, known before reads). */
export const mailLimitLock = (applicationId: string, templateKeys: readonly DeliveryKey[], to?: string): string =>
  `mail-limit:${applicationId}:${templateKeys.join(',')}:${to === undefined ? '' : normalizeEmail(to)}`;

/** Under mailLimitLock, so instances count one at a time. Ids are UUIDv7: the last hour is a range of the key. */
export async function secondsUntilQueueable(em: EntityManager, applicationId: string, templateKeys: readonly DeliveryKey[], perHour: number, to?: string): Promise<number> {
  const hourAgo = Date.now() - 3_600_000;
  const [row] = await executeOwned<{ count: number; first: Date | null }[]>(
    em,
    applicationId,
    `select count(*)::int as count, min(created_at) as first from email_delivery
      where @owner and id >= ? and template_key in (?)${to === undefined ? '' : ' and to_key = ?'}`,
    [firstIdAt(new Date(hourAgo)), templateKeys, ...(to === undefined ? [] : [normalizeEmail(to)])],
  );
  if (row === undefined || row.count < perHour || row.first === null) return 0;
  return Math.max(1, Math.ceil((new Date(row.first).getTime() - hourAgo) / 1000));
}

export async function sendTestEmail(scope: Scope, input: { to: string }): Promise<EmailDelivery> {
  // Enough to try a provider; bounded, since the test mail goes to any address.
  const perHour = scope.services.config.testEmailsPerHour;
  const rendered = await renderMail(scope.em, scope, { templateKey: TEST_MAIL_KEY, to: input.to, tenantId: scope.tenantId });
  const delivery = await scope.transactional(async (em) => {
    const retryAfterSeconds = await secondsUntilQueueable(em, scope.applicationId, [TEST_MAIL_KEY], perHour);
    if (retryAfterSeconds > 0) throw rateLimitRefusal('test_emails', `At most ${perHour} test e-mails an hour per application: try again later`, retryAfterSeconds);
    return queueRendered(em, scope, rendered);
  }, mailLimitLock(scope.applicationId, [TEST_MAIL_KEY]));
  scope.services.outbox.wake();
  return delivery;
}
