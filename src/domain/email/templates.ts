import type { Scope } from '../../context.ts';
import { Tenant, type Setting } from '../../db/entities/index.ts';
import { invalid } from '../../errors.ts';
import { effectiveBranding } from '../branding/branding.ts';
import { pageSize, type Page, type PageArgs, scopedList } from '../pagination.ts';
import { overrideTenant } from '../tenancy/override-target.ts';
import {
  applicationValue,
  assertTenantMayCustomize,
  effectiveValue,
  putApplicationSetting,
  putTenantOverride,
  removeTenantOverride,
  type Effective,
  type SettingWrite,
  type Source,
} from '../tenancy/settings.ts';
import { isPlainText } from '../validate.ts';
import { carriesWayIn, requireHoldsWhatMailReaches } from './mailed-accounts.ts';
import { brandingVariable, tenantVariable } from './outbox.ts';
import { renderDrafts, TEMPLATE_PARTS, type TemplatePart } from './render.ts';
import { DEFAULT_LOCALE } from '../locales.ts';
import { DEFAULT_TEMPLATES, isTemplateKey, partsFor, TEMPLATE_KEYS, templateVariables, withExpiresIn, type TemplateContent, type TemplateKey } from './template-defaults.ts';

/**
 * While `emailTemplatesScope` = `tenant`, a tenant may override any single template; the rest fall back to the
 * application's (or the built-in default).
 */
export interface EmailTemplate extends TemplateContent {
  key: TemplateKey;
  variables: string[];
  /** Null for the application's own value. */
  source: Source | null;
  /** Null while the built-in default applies. */
  updatedAt: Date | null;
}

export const TEMPLATE_LIMITS: Readonly<Record<TemplatePart, number>> = { subject: 500, html: 100_000, text: 50_000 };

export interface EmailTemplateInput {
  subject: string;
  html: string;
  text: string;
}

export interface PreviewInput {
  subject?: string | null;
  html?: string | null;
  text?: string | null;
  variables?: Record<string, unknown> | null;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  /** The samples, overlaid with the caller's. */
  variables: Record<string, unknown>;
}

function templateKey(value: string): TemplateKey {
  if (!isTemplateKey(value)) throw invalid('templateKey', `templateKey must be one of ${TEMPLATE_KEYS.join(', ')}`);
  return value;
}

/** The Liquid syntax is checked by rendering (validateTemplate). */
export function checkTemplateParts(input: Partial<EmailTemplateInput>): void {
  for (const part of ['subject', 'html', 'text'] as const) {
    const value = input[part];
    if (value === undefined) continue;
    if (value.trim().length === 0 || value.length > TEMPLATE_LIMITS[part]) {
      throw invalid(part, `${part} must be 1 to ${TEMPLATE_LIMITS[part]} characters`);
    }
    // PostgreSQL stores no NUL (the write fails), and no e-mail needs another control character.
    if (!isPlainText(value)) throw invalid(part, `${part} must not contain control characters other than tabs and line breaks`);
  }
  if (input.subject !== undefined && /[\r\n\u2028\u2029]/.test(input.subject)) throw invalid('subject', 'subject must be one line');
}

function present(key: TemplateKey, row: Setting | undefined, source: Source | null): EmailTemplate {
  const stored = (row?.value ?? {}) as Partial<TemplateContent>;
  const fallback = DEFAULT_TEMPLATES[key];
  return {
    key,
    subject: stored.subject ?? fallback.subject,
    html: stored.html ?? fallback.html,
    text: stored.text ?? fallback.text,
    variables: templateVariables(key),
    source,
    updatedAt: row?.updatedAt ?? null,
  };
}

async function current(scope: Scope, key: TemplateKey): Promise<Effective<null>> {
  return scope.tenantId === null
    ? applicationValue(scope, 'email_template', key, null)
    : effectiveValue(scope, scope.tenantId, 'email_template', key, null);
}

async function effectiveTemplate(scope: Scope, key: TemplateKey): Promise<EmailTemplate> {
  const effective = await current(scope, key);
  return present(key, effective.row, scope.tenantId === null ? null : effective.source);
}

/** One statement for every template's settings (the request's loader); the list fits one default page. */
export async function listEmailTemplates(scope: Scope, args: PageArgs): Promise<Page<EmailTemplate>> {
  const size = pageSize(args);
  const list = scopedList(scope, 'email-templates');
  const after = args.cursor == null ? -1 : TEMPLATE_KEYS.indexOf(templateKey(scope.services.cursors.decode(list, args.cursor)));
  const keys = TEMPLATE_KEYS.slice(after + 1, after + 1 + size);
  const data = await Promise.all(keys.map((key) => effectiveTemplate(scope, key)));
  const last = keys.at(-1);
  const more = last !== undefined && TEMPLATE_KEYS.indexOf(last) < TEMPLATE_KEYS.length - 1;
  return { data, next: more ? scope.services.cursors.encode(list, last) : null };
}

export async function getEmailTemplate(scope: Scope, key: string): Promise<EmailTemplate> {
  return effectiveTemplate(scope, templateKey(key));
}

async function sampleVariables(scope: Scope): Promise<Record<string, unknown>> {
  const application = await scope.application();
  const tenant = scope.tenantId === null ? null : await scope.em.findOne(Tenant, { id: scope.tenantId });
  const branding = await effectiveBranding(scope);
  const link = `${scope.services.config.publicUrl}/example/action?token=sample-token`;
  return {
    application: { name: application.name },
    tenant: tenantVariable(tenant),
    user: { name: 'Ada Lovelace', email: 'ada@example.com' },
    branding: brandingVariable({ logoUrl: branding.logoUrl, faviconUrl: branding.faviconUrl, colors: branding.colors, copy: branding.copy }),
    link,
    existingAccount: false,
    addressChanged: false,
    addsPasskey: false,
    code: '428613',
    expiresInMinutes: 15,
    expiresInDays: 7,
    changedAt: '2025-01-15T09:30:00Z',
    factor: 'Authenticator app',
    inviter: { name: 'Grace Hopper', email: 'grace@example.com' },
    newEmail: 'ada.lovelace@example.org',
    signIn: { time: '2025-01-15T09:30:00Z', device: 'Firefox on macOS', location: 'Lisbon, Portugal', ip: '203.0.113.7' },
    clonedPasskey: null,
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Nested objects merge, anything else replaces. */
function overlay(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [name, value] of Object.entries(over)) {
    if (name === '__proto__') continue; // JSON may carry it as an own key; assigning it would swap the prototype
    const under = merged[name];
    merged[name] = isPlainObject(under) && isPlainObject(value) ? overlay(under, value) : value;
  }
  return merged;
}

/**
 * 409 `tenant_customization_disabled` for a tenant while `emailTemplatesScope` = `application`. A template must render
 * with the sample variables and name only its template's variables, so a syntax error or a misspelt `{{ lnik }}` is a
 * 422 now rather than a failed or empty e-mail later.
 */
export async function putEmailTemplate(scope: Scope, key: string, input: EmailTemplateInput): Promise<EmailTemplate> {
  const templateKeyValue = templateKey(key);
  if (scope.tenantId !== null) assertTenantMayCustomize(await scope.application(), 'email_template');
  checkTemplateParts(input);
  if (carriesWayIn(templateKeyValue)) await requireHoldsWhatMailReaches(scope);
  const content: TemplateContent = { subject: input.subject, html: input.html, text: input.text };
  await renderDrafts(scope, [{ parts: content, written: TEMPLATE_PARTS, offered: templateVariables(templateKeyValue) }], withExpiresIn(await sampleVariables(scope), DEFAULT_LOCALE));
  const write: SettingWrite = { feature: 'email_template', key: templateKeyValue, compose: () => ({ value: { ...content } }), action: 'email_template.updated' };
  if (scope.tenantId === null) return present(templateKeyValue, await putApplicationSetting(scope, write), null);
  return present(templateKeyValue, await putTenantOverride(scope, scope.tenantId, write), 'customized');
}

export async function removeEmailTemplateOverride(scope: Scope, key: string): Promise<boolean> {
  const templateKeyValue = templateKey(key);
  return removeTenantOverride(scope, overrideTenant(scope), 'email_template', templateKeyValue, 'email_template.override.removed');
}

/**
 * Stores nothing. HTML output is escaped unless the template says `| raw`. Draft parts are checked as a PUT checks them;
 * stored parts render as a mail renders them.
 */
export async function previewEmailTemplate(scope: Scope, key: string, input: PreviewInput): Promise<RenderedEmail> {
  const keyValue = templateKey(key);
  const effective = await effectiveTemplate(scope, keyValue);
  const draft = { subject: input.subject ?? undefined, html: input.html ?? undefined, text: input.text ?? undefined };
  checkTemplateParts(draft);
  const variables = withExpiresIn(overlay(await sampleVariables(scope), input.variables ?? {}), DEFAULT_LOCALE);
  const parts = { subject: draft.subject ?? effective.subject, html: draft.html ?? effective.html, text: draft.text ?? effective.text };
  const written = TEMPLATE_PARTS.filter((part) => draft[part] !== undefined);
  // The draft checked, then what a mail would say: a part unaware of the other text asked for is the built-in one.
  const sent = partsFor(keyValue, parts, DEFAULT_TEMPLATES[keyValue], variables);
  const drafts = [{ parts, written, offered: effective.variables }, ...(sent === parts ? [] : [{ parts: sent, written: [], offered: effective.variables }])];
  const rendered = await renderDrafts(scope, drafts, variables);
  return { ...rendered.at(-1)!, variables };
}
