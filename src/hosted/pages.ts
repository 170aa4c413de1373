import { randomBytes } from 'node:crypto';
import type { BrandingValue } from '../domain/branding/branding.ts';
import { DEFAULT_BRANDING } from '../domain/branding/branding.ts';

/**
 * The hosted pages as server-rendered HTML: no script, no external asset but the tenant's own logo and favicon,
 * one inline <style> allowed by a per-response nonce. Every text a page shows can be replaced through the
 * branding's `copy` (key → text); every value interpolated is escaped.
 */
export const DEFAULT_COPY = {
  'login.title': 'Sign in',
  'login.subtitle': 'to continue to {name}',
  'login.email': 'Email address',
  'login.password': 'Password',
  'login.submit': 'Sign in',
  'login.error': 'The email address or password is incorrect.',
  'login.noAccess': 'This account has no access to {name}.',
  'login.signup': 'No account yet?',
  'login.signupLink': 'Create an account',
  'tenant.title': 'Choose an organization',
  'tenant.label': 'Organization',
  'tenant.submit': 'Continue',
  'tenant.error': 'Choose one of the listed organizations.',
  'signup.title': 'Create an account',
  'signup.subtitle': 'to continue to {name}',
  'signup.name': 'Name',
  'signup.email': 'Email address',
  'signup.password': 'Password',
  'signup.submit': 'Create account',
  'signup.login': 'Already have an account?',
  'signup.loginLink': 'Sign in',
  'signup.exists': 'This email address cannot be used to sign up. Sign in instead, if it is yours.',
  'signup.invalid': 'Please correct the fields marked below.',
  'error.title': 'Sign-in is not possible',
  'error.back': 'Go back to the application and try again.',
} as const;

export type CopyKey = keyof typeof DEFAULT_COPY;

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The look of a page: branding (effective for the tenant) and the name shown under the title. */
export interface PageLook {
  readonly branding: BrandingValue;
  /** The tenant's name, else the application's. */
  readonly name: string;
}

export const PLAIN_LOOK: PageLook = { branding: DEFAULT_BRANDING, name: 'Gatehouse' };

export interface RenderedPage {
  readonly html: string;
  /** Origins of the images the page shows (logo, favicon), for the Content-Security-Policy. */
  readonly imageSources: readonly string[];
}

function text(look: PageLook, key: CopyKey): string {
  const template = look.branding.copy[key] ?? DEFAULT_COPY[key];
  return escapeHtml(template.replaceAll('{name}', look.name));
}

/** #rrggbb, validated again here: the value ends up inside a <style> element. */
const color = (value: string, fallback: string) => (/^#[0-9a-fA-F]{6}$/.test(value) ? value : fallback);

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:var(--gh-background);color:var(--gh-text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:100%;max-width:24rem;margin:2rem 1rem;padding:2rem;border-radius:.75rem;box-shadow:0 1px 3px rgba(0,0,0,.15),0 8px 24px rgba(0,0,0,.08);background:var(--gh-background)}
.logo{display:block;max-width:10rem;max-height:4rem;margin:0 auto 1rem}
h1{margin:0 0 .25rem;font-size:1.5rem;text-align:center}
.subtitle{margin:0 0 1.5rem;text-align:center;opacity:.8}
form{display:flex;flex-direction:column;gap:.25rem}
label{font-weight:600;margin-top:.75rem}
input,select{font:inherit;padding:.6rem .75rem;border:1px solid rgba(0,0,0,.35);border-radius:.375rem;background:#fff;color:#111}
input:focus,select:focus,button:focus,a:focus{outline:3px solid var(--gh-primary);outline-offset:2px}
input[aria-invalid=true]{border-color:#b91c1c}
button{margin-top:1.5rem;padding:.7rem;border:0;border-radius:.375rem;background:var(--gh-primary);color:#fff;font:inherit;font-weight:600;cursor:pointer}
.error{margin:0 0 1rem;padding:.75rem;border-radius:.375rem;background:#fef2f2;color:#991b1b;border:1px solid #fecaca}
.field-error{margin:0;color:#b91c1c;font-size:.875rem}
.alt{margin:1.5rem 0 0;text-align:center}
a{color:var(--gh-primary)}
`;

function imageOrigin(url: string | null): string[] {
  if (url === null) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
}

function document(look: PageLook, nonce: string, title: string, body: string): RenderedPage {
  const { colors, logoUrl, faviconUrl } = look.branding;
  const defaults = DEFAULT_BRANDING.colors;
  const variables =
    `:root{--gh-primary:${color(colors.primary, defaults.primary)};` +
    `--gh-background:${color(colors.background, defaults.background)};--gh-text:${color(colors.text, defaults.text)}}`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
${faviconUrl === null ? '' : `<link rel="icon" href="${escapeHtml(faviconUrl)}">\n`}<style nonce="${nonce}">${variables}${STYLE}</style>
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

/** A message tied to the fields it concerns (aria-describedby), announced when the page loads (role="alert"). */
function formError(id: string, message: string | undefined): string {
  return message === undefined ? '' : `<p id="${id}" class="error" role="alert">${message}</p>\n`;
}

interface FieldOptions {
  id: string;
  label: string;
  type: 'email' | 'password' | 'text';
  autocomplete: string;
  value?: string;
  describedBy: string[];
  invalid: boolean;
  required?: boolean;
  extra?: string;
}

function field(options: FieldOptions): string {
  const describedBy = options.describedBy.length === 0 ? '' : ` aria-describedby="${options.describedBy.join(' ')}"`;
  const value = options.value === undefined || options.value === '' ? '' : ` value="${escapeHtml(options.value)}"`;
  return (
    `<label for="${options.id}">${options.label}</label>\n` +
    `<input id="${options.id}" name="${options.id}" type="${options.type}" autocomplete="${options.autocomplete}"${options.required === false ? '' : ' required'}` +
    `${value}${describedBy}${options.invalid ? ' aria-invalid="true"' : ''}>\n${options.extra ?? ''}`
  );
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">\n`;

export interface LoginPageInput {
  readonly action: string;
  readonly csrf: string;
  readonly email?: string;
  /** The generic failure, or another message (already chosen from the copy). */
  readonly error?: CopyKey;
  /** Link to the sign-up form, when sign-up is open. */
  readonly signupUrl?: string;
}

export function loginPage(look: PageLook, nonce: string, input: LoginPageInput): RenderedPage {
  const error = input.error === undefined ? undefined : text(look, input.error);
  const describedBy = error === undefined ? [] : ['form-error'];
  const body =
    `<h1>${text(look, 'login.title')}</h1>\n<p class="subtitle">${text(look, 'login.subtitle')}</p>\n` +
    formError('form-error', error) +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('csrf', input.csrf)}` +
    field({ id: 'email', label: text(look, 'login.email'), type: 'email', autocomplete: 'username', value: input.email ?? '', describedBy, invalid: error !== undefined }) +
    field({ id: 'password', label: text(look, 'login.password'), type: 'password', autocomplete: 'current-password', describedBy, invalid: error !== undefined }) +
    `<button type="submit">${text(look, 'login.submit')}</button>\n</form>\n` +
    (input.signupUrl === undefined
      ? ''
      : `<p class="alt">${text(look, 'login.signup')} <a href="${escapeHtml(input.signupUrl)}">${text(look, 'login.signupLink')}</a></p>\n`);
  return document(look, nonce, text(look, 'login.title'), body);
}

export interface TenantPageInput {
  readonly action: string;
  readonly csrf: string;
  /** The signed proof of the sign-in the choice completes. */
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
    `<select id="tenant" name="tenant" required${error === undefined ? '' : ' aria-describedby="form-error" aria-invalid="true"'}>\n${options}\n</select>\n` +
    `<button type="submit">${text(look, 'tenant.submit')}</button>\n</form>\n`;
  return document(look, nonce, text(look, 'tenant.title'), body);
}

export interface SignupPageInput {
  readonly action: string;
  readonly csrf: string;
  readonly loginUrl: string;
  readonly name?: string;
  readonly email?: string;
  /** A message about the whole form (copy key). */
  readonly error?: CopyKey;
  /** Messages per field (already worded: the password policy's). */
  readonly fieldErrors?: Partial<Record<'name' | 'email' | 'password', string[]>>;
}

export function signupPage(look: PageLook, nonce: string, input: SignupPageInput): RenderedPage {
  const error = input.error === undefined ? undefined : text(look, input.error);
  const fieldErrors = input.fieldErrors ?? {};
  const describe = (name: 'name' | 'email' | 'password') => {
    const messages = fieldErrors[name] ?? [];
    const ids = [...(error === undefined ? [] : ['form-error']), ...(messages.length === 0 ? [] : [`${name}-error`])];
    const extra =
      messages.length === 0 ? '' : `<p id="${name}-error" class="field-error">${messages.map((message) => escapeHtml(message)).join('<br>')}</p>\n`;
    return { describedBy: ids, invalid: messages.length > 0, extra };
  };
  const body =
    `<h1>${text(look, 'signup.title')}</h1>\n<p class="subtitle">${text(look, 'signup.subtitle')}</p>\n` +
    formError('form-error', error) +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('csrf', input.csrf)}` +
    field({ id: 'name', label: text(look, 'signup.name'), type: 'text', autocomplete: 'name', value: input.name ?? '', required: false, ...describe('name') }) +
    field({ id: 'email', label: text(look, 'signup.email'), type: 'email', autocomplete: 'email', value: input.email ?? '', ...describe('email') }) +
    field({ id: 'password', label: text(look, 'signup.password'), type: 'password', autocomplete: 'new-password', ...describe('password') }) +
    `<button type="submit">${text(look, 'signup.submit')}</button>\n</form>\n` +
    `<p class="alt">${text(look, 'signup.login')} <a href="${escapeHtml(input.loginUrl)}">${text(look, 'signup.loginLink')}</a></p>\n`;
  return document(look, nonce, text(look, 'signup.title'), body);
}

/**
 * A dead end: what went wrong, in words for the end user, and the OAuth error code when there is one; no link back
 * (the application starts a new sign-in).
 */
export function errorPage(look: PageLook, nonce: string, message: string, code?: string): RenderedPage {
  const detail = code === undefined ? '' : `<p>Error code: <code>${escapeHtml(code)}</code></p>\n`;
  const body = `<h1>${text(look, 'error.title')}</h1>\n<p role="alert">${escapeHtml(message)}</p>\n${detail}<p>${text(look, 'error.back')}</p>\n`;
  return document(look, nonce, text(look, 'error.title'), body);
}

/** What every hosted answer carries: never framed, cached or sniffed, nor leaking its URL as a Referer. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/**
 * The headers of a rendered page: its nonce-allowed style and its images only, and `formAction` as the places its
 * form may post to (and be redirected through), `'none'` for a page without a form.
 */
export function pageHeaders(nonce: string, page: RenderedPage, formAction: readonly string[] = ["'none'"]): Record<string, string> {
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `img-src ${page.imageSources.length === 0 ? "'none'" : page.imageSources.join(' ')}`,
    `form-action ${formAction.join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return { 'content-security-policy': csp, ...SECURITY_HEADERS };
}

/** An error page with its headers and a fresh nonce, for answers outside the hosted routes (the OP's, a surface's). */
export function standaloneErrorPage(look: PageLook, message: string, code?: string): { headers: Record<string, string>; html: string } {
  const nonce = randomBytes(16).toString('base64');
  const page = errorPage(look, nonce, message, code);
  return { headers: pageHeaders(nonce, page), html: page.html };
}
