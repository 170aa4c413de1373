import { DEFAULT_LOCALE, directionOf, LOCALES, type Locale } from '../locales.ts';
import { DE } from './template-copy/de.ts';
import { EN } from './template-copy/en.ts';
import { ES } from './template-copy/es.ts';
import { FR } from './template-copy/fr.ts';
import type { MailCopy, MailText, MailWords } from './template-copy/mail-copy.ts';

/**
 * The 12 transactional e-mails (the spec's limit; API.md: "Email template keys"); the built-in templates apply until the
 * application or a tenant stores its own, in each language of LOCALES (template-copy/). A notice without a key of its
 * own is another text of one (`welcome`'s `existingAccount`, `mfa_enrolled`'s `clonedPasskey`, `email_change`'s
 * `addressChanged`).
 */
export const TEMPLATE_KEYS = [
  'verify_email',
  'welcome',
  'magic_link',
  'password_reset',
  'password_changed',
  'email_otp',
  'mfa_enrolled',
  'invitation',
  'new_sign_in',
  'account_locked',
  'email_change',
  'account_deleted',
] as const;

export type TemplateKey = (typeof TEMPLATE_KEYS)[number];

export interface TemplateContent {
  subject: string;
  html: string;
  text: string;
}

const COMMON_VARIABLES = ['application.name', 'tenant.name', 'tenant.slug', 'user.name', 'user.email', 'branding'] as const;

/** The variables whose text an end user writes (their name and address, the address they ask for, an inviting user's,
 *  a passkey's name): an HTML part prints them escaped, `| raw` too (render-worker.ts). The rest the service words or
 *  the application's owner and administrators write (links, codes, dates, the application's and tenants' names). */
export const END_USER_VARIABLES = ['user.name', 'user.email', 'newEmail', 'inviter.name', 'inviter.email', 'clonedPasskey.name'] as const;

/** Beyond `application`, `tenant`, `user` and `branding`, which every template has. */
const OWN_VARIABLES: Record<TemplateKey, readonly string[]> = {
  verify_email: ['link', 'expiresInMinutes', 'expiresIn'],
  welcome: ['link', 'existingAccount'],
  magic_link: ['link', 'expiresInMinutes', 'expiresIn'],
  password_reset: ['link', 'expiresInMinutes', 'expiresIn'],
  password_changed: ['link', 'changedAt'],
  email_otp: ['code', 'expiresInMinutes', 'expiresIn', 'addsPasskey'],
  mfa_enrolled: ['link', 'factor', 'clonedPasskey.name'],
  invitation: ['link', 'inviter.name', 'inviter.email', 'expiresInDays'],
  new_sign_in: ['link', 'signIn.time', 'signIn.device', 'signIn.location', 'signIn.ip'],
  account_locked: ['link'],
  email_change: ['link', 'newEmail', 'expiresInMinutes', 'expiresIn', 'addressChanged'],
  account_deleted: [],
};

/** `expiresIn`: `expiresInMinutes` in the mail's language, in hours when whole ones ("24 hours", not "1440 minutes"). */
export function withExpiresIn(variables: Record<string, unknown>, locale: Locale): Record<string, unknown> {
  const minutes = variables['expiresInMinutes'];
  if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 0 || 'expiresIn' in variables) return variables;
  const [count, unit] = minutes >= 60 && minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return { ...variables, expiresIn: new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(count) };
}

export function templateVariables(key: TemplateKey): string[] {
  return [...COMMON_VARIABLES, ...OWN_VARIABLES[key]];
}

export function isTemplateKey(value: string): value is TemplateKey {
  return (TEMPLATE_KEYS as readonly string[]).includes(value);
}

/** Templates that may go without a link (`email_change`'s notice and `password_changed` of an administrator's change):
 *  their button and link line are drawn only when there is one. */
const LINK_OPTIONAL: ReadonlySet<TemplateKey> = new Set(['email_change', 'password_changed']);
const ifLink = (optional: boolean, drawn: string) => (optional ? `{% if link %}${drawn}{% endif %}` : drawn);

function layout(locale: Locale, heading: string, paragraphs: readonly string[], button?: string, linkOptional = false): string {
  const action =
    button === undefined
      ? ''
      : ifLink(
          linkOptional,
          `<p style="margin:24px 0"><a href="{{ link }}" style="display:inline-block;padding:12px 20px;border-radius:6px;` +
            `background:{{ branding.colors.primary }};color:{{ branding.readable.onPrimary }};text-decoration:none;font-weight:600">${button}</a></p>\n`,
        );
  return [
    '<!doctype html>',
    `<html lang="${locale}" dir="${directionOf(locale)}"><body style="margin:0;padding:24px;background:{{ branding.colors.background }};color:{{ branding.readable.text }};` +
      'font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5">',
    '<div style="max-width:480px;margin:0 auto">',
    '{% if branding.logoUrl %}<img src="{{ branding.logoUrl }}" alt="{{ application.name }}" height="40">{% endif %}',
    `<h1 style="font-size:20px">${heading}</h1>`,
    ...paragraphs.map((paragraph) => `<p>${paragraph}</p>`),
    action +
      '<p style="font-size:12px">{{ application.name }}{% if tenant.name %} · {{ tenant.name }}{% endif %}</p>',
    '</div></body></html>',
    '',
  ].join('\n');
}

function plain(greeting: string, paragraphs: readonly string[], link = false, linkOptional = false): string {
  const text = paragraphs.map((paragraph) => paragraph.replace(/<[^>]+>/g, ''));
  const lines = [greeting, '', ...text.flatMap((paragraph) => [paragraph, ''])];
  const linkLine = !link ? '' : ifLink(linkOptional, '{{ link }}\n\n');
  lines.push(`${linkLine}— {{ application.name }}{% if tenant.name %} · {{ tenant.name }}{% endif %}`, '');
  return lines.join('\n');
}

function template(locale: Locale, greeting: string, mail: MailText, linkOptional: boolean): TemplateContent {
  return {
    subject: mail.subject,
    html: layout(locale, mail.heading, [greeting, ...mail.paragraphs], mail.button, linkOptional),
    text: plain(greeting, mail.paragraphs, mail.button !== undefined, linkOptional),
  };
}

const MAIL_COPY: Readonly<Record<Locale, MailCopy>> = { en: EN, de: DE, fr: FR, es: ES };

const templatesIn = (locale: Locale) => {
  const { greeting, templates } = MAIL_COPY[locale];
  return Object.fromEntries(TEMPLATE_KEYS.map((key) => [key, template(locale, greeting, templates[key], LINK_OPTIONAL.has(key))])) as Record<TemplateKey, TemplateContent>;
};

/** A stored template has no language and is used as it is. */
const BY_LOCALE = Object.fromEntries(LOCALES.map((locale) => [locale, templatesIn(locale)])) as Record<Locale, Readonly<Record<TemplateKey, TemplateContent>>>;

export const mailWords = (locale: Locale): MailWords => MAIL_COPY[locale].words;

export const defaultTemplate = (key: TemplateKey, locale: Locale = DEFAULT_LOCALE): TemplateContent => BY_LOCALE[locale][key];

/** The variable that turns a template into its other text, a notice of its own. */
const OTHER_TEXT: Partial<Record<TemplateKey, string>> = { welcome: 'existingAccount', mfa_enrolled: 'clonedPasskey', email_change: 'addressChanged' };

/** A stored part that never names its template's other text would send that notice in the template's own words ("confirm
 *  your new address" to the address the account left): the built-in part says it instead. */
export function partsFor(key: TemplateKey, parts: TemplateContent, builtIn: TemplateContent, variables: Record<string, unknown>): TemplateContent {
  const flag = OTHER_TEXT[key];
  if (flag === undefined || variables[flag] == null || variables[flag] === false) return parts;
  const names = new RegExp(`\\b${flag}\\b`);
  if (names.test(parts.subject) && names.test(parts.html) && names.test(parts.text)) return parts;
  const part = (name: keyof TemplateContent) => (names.test(parts[name]) ? parts[name] : builtIn[name]);
  return { subject: part('subject'), html: part('html'), text: part('text') };
}

/** What the API shows as each template's default. */
export const DEFAULT_TEMPLATES: Readonly<Record<TemplateKey, TemplateContent>> = BY_LOCALE[DEFAULT_LOCALE];
