import { randomBytes } from 'node:crypto';
import type { PageLook } from '../domain/sign-in/surface-settings.ts';
import { DEFAULT_BRANDING } from '../domain/branding/branding.ts';
import { URL_HOST_PATTERN } from '../domain/domains/hostname.ts';
import { HTML_SECURITY_HEADERS } from '../http/html-security.ts';
import type { PasswordPolicy } from '../domain/policies/definitions.ts';
import type { AnnouncedFactor } from '../domain/mfa/announced-factor.ts';
import { CATALOGS, fillCopy, NAME_PLACEHOLDER, type CopyKey, type CopyText } from '../domain/branding/copy/index.ts';
import type { UnbrandedCopyKey } from '../domain/branding/copy/unbranded.ts';
import { DEFAULT_LOCALE, directionOf, negotiateLocale } from '../domain/locales.ts';
import { isBlankText } from '../domain/validate.ts';
import { colorVariables } from './brand-colors.ts';

/**
 * Server-rendered hosted pages: no external asset but the tenant's logo and favicon, one nonce-allowed inline <style>,
 * no script but WebAuthn's (src/pages/webauthn.ts). Every text is replaceable through branding `copy`; every value is escaped.
 */

export type { CopyKey, CopyText };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

export type { PageLook };

export const PLAIN_LOOK: PageLook = { branding: DEFAULT_BRANDING, name: 'Gatehouse', locale: DEFAULT_LOCALE };

/** `look` in the sign-in's `ui_locales`, else the `Accept-Language` (domain/locales.ts). */
export const lookFor = (look: PageLook, acceptLanguage: string | undefined, uiLocales?: unknown): PageLook => ({
  ...look,
  locale: negotiateLocale(uiLocales, acceptLanguage),
});

export interface RenderedPage {
  readonly html: string;
  readonly imageSources: readonly string[];
  /** Hash sources of its inline script; none: no script runs. */
  readonly scriptSources?: readonly string[];
}

/** Copy text for `key`, unescaped, placeholders filled: the branding's for the locale, else for every language, else built-in. */
export function plainText(look: PageLook, key: CopyKey, values: Readonly<Record<string, string>> = {}): string {
  const custom = look.branding.copy[`${look.locale}:${key}`] ?? look.branding.copy[key];
  // A blank text would leave an empty title or label.
  const template = custom === undefined || isBlankText(custom) ? CATALOGS[look.locale][key] : custom;
  return fillCopy(template, { [NAME_PLACEHOLDER]: look.name, ...values });
}

export const text = (look: PageLook, key: CopyKey, values: Readonly<Record<string, string>> = {}): string => escapeHtml(plainText(look, key, values));

export const said = (look: PageLook, copy: CopyText): string => text(look, copy.key, copy.values);

/*
 * Fields keep their own white and near-black, bordered at 4.8:1 (WCAG 1.4.11). No text is faded with opacity (that
 * would undo the contrast); long words wrap at 320 px (1.4.10); buttons keep a transparent border for forced-colors.
 */
const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:var(--gh-background);color:var(--gh-text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:anywhere}
main{width:100%;max-width:24rem;margin:2rem 1rem;padding:2rem;border-radius:.75rem;box-shadow:0 1px 3px rgba(0,0,0,.15),0 8px 24px rgba(0,0,0,.08);background:var(--gh-background)}
@media (max-width:24rem){main{margin:0;padding:1.5rem 1rem;box-shadow:none;border-radius:0}}
.logo{display:block;max-width:10rem;max-height:4rem;margin:0 auto 1rem}
h1{margin:0 0 .25rem;font-size:1.5rem;text-align:center}
h2{margin:0 0 .5rem;font-size:1.125rem}
section{margin-top:1.5rem;padding-top:1rem;border-top:1px solid #6b7280}
ul.sessions{margin:0;padding:0;list-style:none;display:flex;flex-direction:column;gap:.75rem}
.subtitle{margin:0 0 1.5rem;text-align:center}
form{display:flex;flex-direction:column;gap:.25rem}
label{font-weight:600;margin-top:.75rem}
input,select{font:inherit;min-width:0;padding:.6rem .75rem;border:1px solid #6b7280;border-radius:.375rem;background:#fff;color:#111}
#user_code{text-transform:uppercase;letter-spacing:.1em}
input:focus,select:focus,button:focus,a:focus{outline:3px solid var(--gh-accent);outline-offset:2px}
input[aria-invalid=true],select[aria-invalid=true]{border:2px solid #b91c1c}
button{margin-top:1.5rem;padding:.7rem;border:1px solid transparent;border-radius:.375rem;background:var(--gh-primary);color:var(--gh-on-primary);font:inherit;font-weight:600;cursor:pointer}
button.secondary{margin-top:.5rem;background:transparent;color:var(--gh-accent);border-color:var(--gh-accent)}
.code{margin:1rem 0;text-align:center;font-size:1.75rem;letter-spacing:.15em}
.notice{margin:0 0 1rem;padding:.75rem;border-radius:.375rem;border:1px solid currentColor}
.error{margin:0 0 1rem;padding:.75rem;border-radius:.375rem;background:#fef2f2;color:#991b1b;border:1px solid #fecaca}
.field-error{margin:0;color:var(--gh-danger);font-size:.875rem}
.hint{margin:0;font-size:.875rem}
.alt{margin:1.5rem 0 0;text-align:center}
.alt ul{list-style:none;margin:0;padding:0}
.upstreams{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:.5rem}
.upstream{display:block;padding:.7rem;border:1px solid var(--gh-accent);border-radius:.375rem;text-align:center;font-weight:600;text-decoration:none}
.or{margin:1rem 0 0;text-align:center}
a{color:var(--gh-accent)}
`;

function imageOrigin(url: string | null): string[] {
  const source = cspSource(url);
  return source === undefined ? [] : [source];
}

/** WCAG 2.4.2; a form shown again with an error says so first, the first thing a screen reader reads of the page. */
function documentTitle(look: PageLook, heading: string, error: boolean): string {
  return `${error ? `${text(look, 'error.titlePrefix')} ` : ''}${heading} – ${escapeHtml(look.name)}`;
}

export function document(look: PageLook, nonce: string, heading: string, body: string, error = false): RenderedPage {
  const { logoUrl, faviconUrl } = look.branding;
  const html = `<!doctype html>
<html lang="${look.locale}" dir="${directionOf(look.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${documentTitle(look, heading, error)}</title>
${faviconUrl === null ? '' : `<link rel="icon" href="${escapeHtml(faviconUrl)}">\n`}<style nonce="${nonce}">${colorVariables(look.branding.colors)}${STYLE}</style>
</head>
<body>
<main>
${logoUrl === null ? '' : `<img class="logo" src="${escapeHtml(logoUrl)}" alt="${escapeHtml(look.name)}">\n`}${body}
</main>
</body>
</html>
`;
  return { html, imageSources: [...new Set([...imageOrigin(logoUrl), ...imageOrigin(faviconUrl)])] };
}

/** aria-describedby ties it to its fields; role="alert" announces it when the page loads. */
export function formError(id: string, message: string | undefined): string {
  return message === undefined ? '' : `<p id="${id}" class="error" role="alert">${message}</p>\n`;
}

interface FieldOptions {
  id: string;
  label: string;
  type: 'password' | 'text';
  autocomplete: string;
  /** Already escaped. */
  attributes?: string;
  value?: string;
  describedBy: string[];
  invalid: boolean;
  focus?: boolean;
  required?: boolean;
  extra?: string;
}

/**
 * `autofocus` on the first field to correct: with no script, that puts the keyboard there and a screen reader reads
 * the field with its error instead of starting over at the top.
 */
const invalidAttributes = (invalid: boolean, focus = false) => `${invalid ? ' aria-invalid="true"' : ''}${invalid && focus ? ' autofocus' : ''}`;

export function field(options: FieldOptions): string {
  const describedBy = options.describedBy.length === 0 ? '' : ` aria-describedby="${options.describedBy.join(' ')}"`;
  const value = options.value === undefined || options.value === '' ? '' : ` value="${escapeHtml(options.value)}"`;
  return (
    `<label for="${options.id}">${options.label}</label>\n` +
    `<input id="${options.id}" name="${options.id}" type="${options.type}" autocomplete="${options.autocomplete}"${options.attributes ?? ''}${options.required === false ? '' : ' required'}` +
    `${value}${describedBy}${invalidAttributes(options.invalid, options.focus)}>\n${options.extra ?? ''}`
  );
}

/**
 * Text, not type="email": the HTML spec's e-mail grammar takes ASCII local parts only, so browsers would refuse
 * jörg@example.com. `username` lets password managers save the new credential under it.
 */
export const emailField = (options: Pick<FieldOptions, 'label' | 'value' | 'describedBy' | 'invalid' | 'focus' | 'extra'> & Partial<Pick<FieldOptions, 'id' | 'autocomplete'>>) =>
  field({
    id: 'email',
    type: 'text',
    autocomplete: 'username',
    attributes: ' inputmode="email" spellcheck="false" autocapitalize="none"',
    ...options,
  });

export const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">\n`;

export interface LoginPageInput {
  readonly action: string;
  readonly csrf: string;
  readonly email?: string;
  readonly error?: CopyKey;
  readonly signupUrl?: string;
  readonly passkeySignupUrl?: string;
  /** Not an error: e.g. that another account will be signed out. */
  readonly notice?: CopyKey;
  readonly forgotUrl?: string;
  /** Shown with the `login.unverified` error. */
  readonly resendUrl?: string;
  /** Default true: a surface may offer only other methods. */
  readonly password?: boolean;
  readonly otherMethods?: string;
  readonly upstreams?: readonly { readonly name: string; readonly url: string }[];
}

function upstreamLinks(look: PageLook, upstreams: readonly { name: string; url: string }[], beforeForm: boolean): string {
  if (upstreams.length === 0) return '';
  const links = upstreams.map((upstream) => `<li><a class="upstream" href="${escapeHtml(upstream.url)}">${text(look, 'login.upstream', { provider: upstream.name })}</a></li>`);
  return `<ul class="upstreams">\n${links.join('\n')}\n</ul>\n` + (beforeForm ? `<p class="or">${text(look, 'login.or')}</p>\n` : '');
}

export function loginPage(look: PageLook, nonce: string, input: LoginPageInput): RenderedPage {
  const error = input.error === undefined ? undefined : text(look, input.error);
  const describedBy = error === undefined ? [] : ['form-error'];
  const body =
    `<h1>${text(look, 'login.title')}</h1>\n<p class="subtitle">${text(look, 'login.subtitle')}</p>\n` +
    (input.notice === undefined ? '' : `<p class="notice" role="status">${text(look, input.notice)}</p>\n`) +
    formError('form-error', error) +
    (input.resendUrl === undefined ? '' : `<p class="alt"><a href="${escapeHtml(input.resendUrl)}">${text(look, 'login.resendLink')}</a></p>\n`) +
    upstreamLinks(look, input.upstreams ?? [], input.password !== false || (input.otherMethods ?? '') !== '') +
    (input.password === false
      ? ''
      : `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('csrf', input.csrf)}` +
        emailField({ label: text(look, 'login.email'), value: input.email ?? '', describedBy, invalid: error !== undefined, focus: true }) +
        field({ id: 'password', label: text(look, 'login.password'), type: 'password', autocomplete: 'current-password', describedBy, invalid: error !== undefined }) +
        `<button type="submit">${text(look, 'login.submit')}</button>\n</form>\n` +
        (input.forgotUrl === undefined ? '' : `<p class="alt"><a href="${escapeHtml(input.forgotUrl)}">${text(look, 'login.forgot')}</a></p>\n`)) +
    (input.otherMethods ?? '') +
    (input.signupUrl === undefined
      ? ''
      : `<p class="alt">${text(look, 'login.signup')} <a href="${escapeHtml(input.signupUrl)}">${text(look, 'login.signupLink')}</a></p>\n`) +
    (input.passkeySignupUrl === undefined ? '' : `<p class="alt"><a href="${escapeHtml(input.passkeySignupUrl)}">${text(look, 'login.passkeySignup')}</a></p>\n`);
  return document(look, nonce, text(look, 'login.title'), body, error !== undefined);
}

export interface TenantPageInput {
  readonly action: string;
  readonly csrf: string;
  readonly signIn: string;
  readonly tenants: readonly { id: string; name: string }[];
  readonly error?: boolean;
}

export function tenantPage(look: PageLook, nonce: string, input: TenantPageInput): RenderedPage {
  const error = input.error === true ? text(look, 'tenant.error') : undefined;
  const options = input.tenants.map((tenant) => `<option value="${escapeHtml(tenant.id)}">${escapeHtml(tenant.name)}</option>`).join('\n');
  const body =
    `<h1>${text(look, 'tenant.title')}</h1>\n` +
    formError('form-error', error) +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('csrf', input.csrf)}${hidden('signin', input.signIn)}` +
    `<label for="tenant">${text(look, 'tenant.label')}</label>\n` +
    `<select id="tenant" name="tenant" required${error === undefined ? '' : ` aria-describedby="form-error"${invalidAttributes(true, true)}`}>\n${options}\n</select>\n` +
    `<button type="submit">${text(look, 'tenant.submit')}</button>\n</form>\n`;
  return document(look, nonce, text(look, 'tenant.title'), body, error !== undefined);
}

export interface SwitchPageInput {
  readonly action: string;
  readonly csrf: string;
  /** Empty: the application's own sign-in. */
  readonly tenantId: string;
  readonly client: string;
  readonly from: string;
  readonly to: string;
}

/** A consent that ends the client's sign-in to another tenant goes on only by this form's POST. */
export function switchPage(look: PageLook, nonce: string, input: SwitchPageInput): RenderedPage {
  const names = { client: input.client, from: input.from, to: input.to };
  const body =
    `<h1>${text(look, 'switch.title')}</h1>\n<p>${text(look, 'switch.text', names)}</p>\n` +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('csrf', input.csrf)}${hidden('tenant', input.tenantId)}` +
    `<button type="submit">${text(look, 'switch.submit', names)}</button>\n</form>\n`;
  return document(look, nonce, text(look, 'switch.title'), body, false);
}

/** In the order the form shows them. */
const SIGNUP_FIELDS = ['name', 'email', 'password'] as const;
type SignupField = (typeof SIGNUP_FIELDS)[number];

export interface SignupPageInput {
  readonly action: string;
  readonly csrf: string;
  readonly loginUrl: string;
  readonly name?: string;
  readonly email?: string;
  readonly error?: CopyKey;
  readonly fieldErrors?: Partial<Record<SignupField, readonly CopyText[]>>;
  /** Stated beside the field before a submit can fail on it (WCAG 3.3.2). */
  readonly passwordPolicy: PasswordPolicy;
}

const listed = (look: PageLook, items: readonly string[]) =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${text(look, 'password.and')} ${items.at(-1)}`;

export function passwordRules(look: PageLook, policy: PasswordPolicy): string {
  const kinds = [
    ...(policy.requireUppercase ? [text(look, 'password.upper')] : []),
    ...(policy.requireLowercase ? [text(look, 'password.lower')] : []),
    ...(policy.requireDigit ? [text(look, 'password.digit')] : []),
    ...(policy.requireSymbol ? [text(look, 'password.symbol')] : []),
  ];
  const length = policy.minLength === 1 ? text(look, 'password.lengthOne') : text(look, 'password.length', { count: String(policy.minLength) });
  const including = kinds.length === 0 ? '' : `${text(look, 'password.including')} ${listed(look, kinds)}`;
  return `${length}${including}.${policy.disallowCommon ? ` ${text(look, 'password.breached')}` : ''}`;
}

export function signupPage(look: PageLook, nonce: string, input: SignupPageInput): RenderedPage {
  const error = input.error === undefined ? undefined : text(look, input.error);
  const fieldErrors = input.fieldErrors ?? {};
  const invalid = (name: SignupField) => (fieldErrors[name] ?? []).length > 0;
  const firstInvalid = SIGNUP_FIELDS.find(invalid);
  const describe = (name: SignupField) => {
    const messages = fieldErrors[name] ?? [];
    const ids = [...(error === undefined ? [] : ['form-error']), ...(messages.length === 0 ? [] : [`${name}-error`])];
    const extra =
      messages.length === 0 ? '' : `<p id="${name}-error" class="field-error">${messages.map((message) => said(look, message)).join('<br>')}</p>\n`;
    return { describedBy: ids, invalid: invalid(name), focus: name === firstInvalid, extra };
  };
  const password = describe('password');
  const passwordField = {
    ...password,
    describedBy: [...password.describedBy, 'password-rules'],
    extra: `<p id="password-rules" class="hint">${passwordRules(look, input.passwordPolicy)}</p>\n${password.extra}`,
  };
  const body =
    `<h1>${text(look, 'signup.title')}</h1>\n<p class="subtitle">${text(look, 'signup.subtitle')}</p>\n` +
    formError('form-error', error) +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('csrf', input.csrf)}` +
    field({ id: 'name', label: text(look, 'signup.name'), type: 'text', autocomplete: 'name', value: input.name ?? '', required: false, ...describe('name') }) +
    emailField({ label: text(look, 'signup.email'), value: input.email ?? '', ...describe('email') }) +
    field({ id: 'password', label: text(look, 'signup.password'), type: 'password', autocomplete: 'new-password', ...passwordField }) +
    `<button type="submit">${text(look, 'signup.submit')}</button>\n</form>\n` +
    `<p class="alt">${text(look, 'signup.login')} <a href="${escapeHtml(input.loginUrl)}">${text(look, 'signup.loginLink')}</a></p>\n`;
  return document(look, nonce, text(look, 'signup.title'), body, error !== undefined);
}

export function notice(look: PageLook, nonce: string, title: string, paragraphs: readonly string[], alert: boolean): RenderedPage {
  const body = `<h1>${title}</h1>\n${paragraphs.map((paragraph, index) => `<p${index === 0 && alert ? ' role="alert"' : ''}>${paragraph}</p>\n`).join('')}`;
  return document(look, nonce, title, body);
}

export type ErrorFlow = 'sign_in' | 'sign_out';

const ERROR_TITLE: Readonly<Record<ErrorFlow, CopyKey>> = { sign_in: 'error.title', sign_out: 'logout.errorTitle' };

export interface ErrorDetail {
  readonly code: string;
  readonly description?: string | undefined;
}

/** A dead end: no link back (the application starts a new sign-in, or sign-out). */
export function errorPage(look: PageLook, nonce: string, message: CopyText, detail?: ErrorDetail, flow: ErrorFlow = 'sign_in'): RenderedPage {
  const described = detail?.description === undefined ? [] : [escapeHtml(detail.description)];
  const coded = detail === undefined ? [] : [`${text(look, 'error.code')} <code>${escapeHtml(detail.code)}</code>`];
  return notice(look, nonce, text(look, ERROR_TITLE[flow]), [said(look, message), ...described, ...coded, text(look, 'error.back')], true);
}

export interface WayBack {
  readonly client: string;
  readonly url: string;
  readonly signedIn: boolean;
}

/** A sign-in reached again once over (Back, an old tab, a form reposted): said as such, with a link to the client. */
export function spentSignInPage(look: PageLook, nonce: string, way: WayBack): RenderedPage {
  const link = (key: CopyKey) => `<a href="${escapeHtml(way.url)}">${text(look, key, { client: way.client })}</a>`;
  if (way.signedIn) {
    return notice(look, nonce, text(look, 'spent.signedInTitle'), [text(look, 'spent.signedInText', { client: way.client }), link('spent.continue')], false);
  }
  return notice(look, nonce, text(look, 'error.title'), [text(look, 'refusal.interactionExpired'), link('spent.restart')], true);
}

export function throttledPage(look: PageLook, nonce: string, retryAfterSeconds: number): RenderedPage {
  return notice(look, nonce, text(look, 'throttled.title'), [text(look, 'throttled.text', { seconds: String(retryAfterSeconds) })], true);
}

/** The page of the application a flow came from (its client's registered home, none the request chose), and its name. */
export interface Onward {
  readonly name: string;
  readonly url: string;
}

export const onwardLink = (look: PageLook, onward: Onward, key: CopyKey = 'done.continueTo'): string =>
  `<a href="${escapeHtml(onward.url)}">${text(look, key, { client: onward.name })}</a>`;

export function donePage(look: PageLook, nonce: string, title: CopyKey, message: CopyKey, values: Readonly<Record<string, string>> = {}, onward?: Onward): RenderedPage {
  return notice(look, nonce, text(look, title), [text(look, message, values), ...(onward === undefined ? [] : [onwardLink(look, onward)])], false);
}

const EMAIL_FORMS = {
  forgot: { title: 'forgot.title', subtitle: 'forgot.subtitle', label: 'forgot.email', submit: 'forgot.submit' },
  resend: { title: 'verify.resendTitle', subtitle: 'verify.resendSubtitle', label: 'forgot.email', submit: 'verify.resendSubmit' },
  passkeySignup: { title: 'passkeySignup.title', subtitle: 'passkeySignup.subtitle', label: 'forgot.email', submit: 'passkeySignup.submit' },
} as const satisfies Record<string, Record<string, CopyKey>>;

export interface EmailFormPageInput {
  readonly action: string;
  readonly csrf: string;
  readonly form: keyof typeof EMAIL_FORMS;
  readonly email?: string;
  readonly loginUrl: string;
}

export function emailFormPage(look: PageLook, nonce: string, input: EmailFormPageInput): RenderedPage {
  const keys = EMAIL_FORMS[input.form];
  const body =
    `<h1>${text(look, keys.title)}</h1>\n<p class="subtitle">${text(look, keys.subtitle)}</p>\n` +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('csrf', input.csrf)}` +
    emailField({ label: text(look, keys.label), value: input.email ?? '', describedBy: [], invalid: false }) +
    `<button type="submit">${text(look, keys.submit)}</button>\n</form>\n` +
    `<p class="alt"><a href="${escapeHtml(input.loginUrl)}">${text(look, 'signup.loginLink')}</a></p>\n`;
  return document(look, nonce, text(look, keys.title), body);
}

export interface NewPasswordPageInput {
  readonly action: string;
  /** The form's proof (a reset link's token, an interaction's CSRF token): no other page knows it. */
  readonly proof: { readonly name: 'token' | 'csrf'; readonly value: string };
  readonly email: string;
  readonly passwordPolicy: PasswordPolicy;
  readonly errors?: readonly CopyText[];
  /** A reset link's: the factor the new password also removes (an `mfa_enrolled` mail's link), whose removal takes the
   *  account's password now besides the link; `currentRefused`, the one typed was not it. */
  readonly removes?: AnnouncedFactor | null;
  /** A restore link's: the address it gives back (`email`), the one it replaces (`current`), and since when what was added
   *  goes; its password is asked as a factor's link's is. */
  readonly restores?: { readonly email: string; readonly current: string; readonly since: Date } | null;
  readonly currentRefused?: boolean;
}

/** Whether the page asks the password the link was sent under. */
const asksProof = (input: NewPasswordPageInput): boolean => input.removes != null || input.restores != null;

/** A moment a link's page names, in the page's language; UTC, as the page knows no time zone of the reader's. */
const shownDate = (look: PageLook, date: Date): string =>
  new Intl.DateTimeFormat(look.locale, { year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' }).format(date);

const REMOVES = { totp: 'reset.removesTotp', email_otp: 'reset.removesEmailOtp', webauthn: 'reset.removesPasskey' } as const satisfies Record<AnnouncedFactor['kind'], CopyKey>;

/** Said before the form is sent: what else the new password takes away. */
function removalNotice(look: PageLook, factor: AnnouncedFactor | null | undefined): string {
  if (factor == null) return '';
  const values = { date: shownDate(look, factor.addedAt), passkey: factor.name ?? '' };
  return `<p class="notice">${text(look, REMOVES[factor.kind], values)}${factor.codesGo ? ` ${text(look, 'reset.removesCodes')}` : ''}</p>\n`;
}

function restoreNotice(look: PageLook, restores: NewPasswordPageInput['restores']): string {
  if (restores == null) return '';
  return `<p class="notice">${text(look, 'reset.restoresEmail', { email: restores.email, current: restores.current, date: shownDate(look, restores.since) })}</p>\n`;
}

/** The account's password when the link was sent, which proves the link's holder is its owner (the mailbox alone removes
 *  no factor and takes back no address). */
function currentPasswordField(look: PageLook, input: NewPasswordPageInput): string {
  if (!asksProof(input)) return '';
  const refused = input.currentRefused === true;
  const extra =
    `<p id="current-hint" class="hint">${text(look, 'reset.currentHint')}</p>\n` +
    (refused ? `<p id="current-error" class="field-error">${text(look, 'reset.currentWrong')}</p>\n` : '');
  return field({
    id: 'current',
    label: text(look, 'reset.current'),
    type: 'password',
    autocomplete: 'current-password',
    describedBy: [...(refused ? ['current-error'] : []), 'current-hint'],
    invalid: refused,
    // The first field wrong, else this one, which comes first.
    focus: refused || input.errors === undefined || input.errors.length === 0,
    extra,
  });
}

/** A new password under the policy's rules: a reset link's page (`reset`) and the change an expired password forces at
 *  sign-in (`expired`, src/hosted/password-change.ts). */
export function newPasswordPage(look: PageLook, nonce: string, copy: 'reset' | 'expired', input: NewPasswordPageInput): RenderedPage {
  const errors = input.errors ?? [];
  const invalid = errors.length > 0;
  const anyInvalid = invalid || input.currentRefused === true;
  const extra =
    `<p id="password-rules" class="hint">${passwordRules(look, input.passwordPolicy)}</p>\n` +
    (invalid ? `<p id="password-error" class="field-error">${errors.map((message) => said(look, message)).join('<br>')}</p>\n` : '');
  const body =
    `<h1>${text(look, `${copy}.title`)}</h1>\n<p class="subtitle">${text(look, `${copy}.subtitle`, { email: input.email })}</p>\n` +
    removalNotice(look, input.removes) +
    restoreNotice(look, input.restores) +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden(input.proof.name, input.proof.value)}` +
    // Password managers save the new password under it.
    `<input type="hidden" name="username" autocomplete="username" value="${escapeHtml(input.email)}">\n` +
    currentPasswordField(look, input) +
    field({
      id: 'password',
      label: text(look, 'reset.password'),
      type: 'password',
      autocomplete: 'new-password',
      describedBy: [...(invalid ? ['password-error'] : []), 'password-rules'],
      invalid,
      focus: !asksProof(input) || (invalid && input.currentRefused !== true),
      extra,
    }) +
    `<button type="submit">${text(look, `${copy}.submit`)}</button>\n</form>\n`;
  return document(look, nonce, text(look, `${copy}.title`), body, anyInvalid);
}

/** A link's one action waits for its button. */
const LINK_CONFIRMATIONS = {
  verify: { title: 'verify.title', text: 'verify.text', submit: 'verify.submit' },
  emailChange: { title: 'emailChange.title', text: 'emailChange.text', submit: 'emailChange.submit' },
} as const satisfies Record<string, Record<string, CopyKey>>;

export type LinkConfirmation = keyof typeof LINK_CONFIRMATIONS;

/** One button, so that a mail scanner opening the link confirms nothing; `refuse` adds a second that posts `disown=1`. */
export function linkConfirmPage(
  look: PageLook,
  nonce: string,
  input: {
    readonly action: string;
    readonly token: string;
    readonly confirms: LinkConfirmation;
    readonly values: Readonly<Record<string, string>>;
    readonly details?: readonly string[];
    readonly refuse?: CopyKey;
  },
): RenderedPage {
  const keys = LINK_CONFIRMATIONS[input.confirms];
  const refuse = input.refuse === undefined ? '' : `<button type="submit" class="secondary" name="disown" value="1">${text(look, input.refuse)}</button>\n`;
  const body =
    `<h1>${text(look, keys.title)}</h1>\n<p>${text(look, keys.text, input.values)}</p>\n` +
    (input.details ?? []).map((detail) => `<p>${detail}</p>\n`).join('') +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('token', input.token)}` +
    `<button type="submit">${text(look, keys.submit)}</button>\n${refuse}</form>\n`;
  return document(look, nonce, text(look, keys.title), body);
}

/** When and under which name the account was made, so the address's owner can tell a sign-up that was not theirs. */
export function accountMade(look: PageLook, account: { readonly name: string | null; readonly createdAt: Date }): string[] {
  const date = shownDate(look, account.createdAt);
  const made = account.name === null ? text(look, 'verify.made', { date }) : text(look, 'verify.madeNamed', { date, accountName: account.name });
  return [made, text(look, 'verify.notMine')];
}

/** The OP's own forms post to the OP, which checks its `xsrf` token (bound to the OP session): carried as given. */
export interface OpFormInput {
  readonly action: string;
  readonly xsrf: string;
}

export interface DeviceCodePageInput extends OpFormInput {
  readonly userCode?: string;
  /** Sent back so that a wrong code is answered in the same look. */
  readonly lookOf?: { readonly clientId: string; readonly tenant: string | undefined };
  readonly error?: 'device.error' | 'device.expired' | 'device.aborted' | 'device.refused' | 'device.failed';
}

export function deviceCodePage(look: PageLook, nonce: string, input: DeviceCodePageInput): RenderedPage {
  const error = input.error === undefined ? undefined : text(look, input.error);
  const describedBy = error === undefined ? [] : ['form-error'];
  const invalid = input.error === 'device.error' || input.error === 'device.expired';
  const body =
    `<h1>${text(look, 'device.title')}</h1>\n<p class="subtitle">${text(look, 'device.subtitle')}</p>\n` +
    formError('form-error', error) +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('xsrf', input.xsrf)}` +
    (input.lookOf === undefined ? '' : hidden('client_id', input.lookOf.clientId)) +
    (input.lookOf?.tenant === undefined ? '' : hidden('tenant', input.lookOf.tenant)) +
    field({
      id: 'user_code',
      label: text(look, 'device.code'),
      type: 'text',
      autocomplete: 'off',
      attributes: ' autocapitalize="characters" spellcheck="false" maxlength="64"',
      value: input.userCode ?? '',
      describedBy,
      invalid,
      focus: true,
    }) +
    `<button type="submit">${text(look, 'device.submit')}</button>\n</form>\n`;
  // A cancelled device is what the user asked for: announced, but not titled as an error.
  return document(look, nonce, text(look, 'device.title'), body, error !== undefined && input.error !== 'device.aborted');
}

export interface DeviceConfirmPageInput extends OpFormInput {
  readonly userCode: string;
}

export function deviceConfirmPage(look: PageLook, nonce: string, input: DeviceConfirmPageInput): RenderedPage {
  const body =
    `<h1>${text(look, 'device.confirmTitle')}</h1>\n<p>${text(look, 'device.confirmText')}</p>\n` +
    `<p class="code"><code>${escapeHtml(input.userCode)}</code></p>\n` +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('xsrf', input.xsrf)}${hidden('user_code', input.userCode)}${hidden('confirm', 'yes')}` +
    `<button type="submit">${text(look, 'device.confirm')}</button>\n` +
    `<button type="submit" class="secondary" name="abort" value="yes">${text(look, 'device.abort')}</button>\n</form>\n`;
  return document(look, nonce, text(look, 'device.confirmTitle'), body);
}

/** `logout=yes` ends every application of the session. `uiLocales`: the logout's, posted back so that the signed-out
 *  page after it keeps its language (src/oidc/middleware.ts). */
export function logoutPage(look: PageLook, nonce: string, input: OpFormInput & { readonly uiLocales?: string }): RenderedPage {
  const language = input.uiLocales === undefined ? '' : hidden('ui_locales', input.uiLocales);
  const body =
    `<h1>${text(look, 'logout.title')}</h1>\n<p>${text(look, 'logout.text')}</p>\n` +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('xsrf', input.xsrf)}${language}` +
    `<button type="submit" name="logout" value="yes">${text(look, 'logout.submit')}</button>\n</form>\n`;
  return document(look, nonce, text(look, 'logout.title'), body);
}

/**
 * CSP3 2.3.1 source grammar. The URL parser accepts hosts with `;`, `,` or quotes, which in a header would end the
 * directive and start another.
 */
const CSP_SOURCE = new RegExp(String.raw`^[a-z][a-z0-9+.-]*:(?:\/\/${URL_HOST_PATTERN}(?::\d{1,5})?)?$`);

export function cspSource(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return undefined;
  let source: string;
  try {
    const url = new URL(uri);
    source = url.origin !== 'null' ? url.origin : url.protocol;
  } catch {
    return undefined;
  }
  return CSP_SOURCE.test(source) ? source : undefined;
}

export const SECURITY_HEADERS: Readonly<Record<string, string>> = { ...HTML_SECURITY_HEADERS, 'cache-control': 'no-store' };

/** `formAction`: where its form may post (and be redirected through); `'none'` for a page without a form. */
export function pageHeaders(nonce: string, page: RenderedPage, formAction: readonly string[] = ["'none'"]): Record<string, string> {
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    ...(page.scriptSources === undefined ? [] : [`script-src ${page.scriptSources.join(' ')}`]),
    `img-src ${page.imageSources.length === 0 ? "'none'" : page.imageSources.join(' ')}`,
    `form-action ${formAction.join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return { 'content-security-policy': csp, ...SECURITY_HEADERS };
}

export function renderPage(render: (nonce: string) => RenderedPage, formAction?: readonly string[]): { headers: Record<string, string>; html: string } {
  const nonce = randomBytes(16).toString('base64');
  const page = render(nonce);
  return { headers: pageHeaders(nonce, page, formAction), html: page.html };
}

export const standaloneErrorPage = (look: PageLook, message: CopyText, detail?: ErrorDetail, flow?: ErrorFlow) =>
  renderPage((nonce) => errorPage(look, nonce, message, detail, flow));

/** An error page in the plain look, where no application's is known: its text is one of the keys branding refuses. */
export const unbrandedErrorPage = (key: UnbrandedCopyKey, languages: { acceptLanguage: string | undefined; uiLocales?: unknown }, detail?: ErrorDetail, flow?: ErrorFlow) =>
  standaloneErrorPage(lookFor(PLAIN_LOOK, languages.acceptLanguage, languages.uiLocales), { key }, detail, flow);
