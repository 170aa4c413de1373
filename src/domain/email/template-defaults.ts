/**
 * The 12 transactional e-mails (API.md: "Email template keys") and the built-in template of each, used until the
 * application (or a tenant) stores its own. Liquid; every template may use `application.name`, `tenant.name`
 * (absent without a tenant), `user.name`, `user.email` and the effective `branding`; each key adds its own
 * variables (templateVariables).
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

const COMMON_VARIABLES = ['application.name', 'tenant.name', 'user.name', 'user.email', 'branding'] as const;

/** The variables each e-mail is rendered with, beyond the common ones. */
const OWN_VARIABLES: Record<TemplateKey, readonly string[]> = {
  verify_email: ['link', 'expiresInMinutes'],
  welcome: ['link', 'existingAccount'],
  magic_link: ['link', 'expiresInMinutes'],
  password_reset: ['link', 'expiresInMinutes'],
  password_changed: ['link', 'changedAt'],
  email_otp: ['code', 'expiresInMinutes'],
  mfa_enrolled: ['link', 'factor'],
  invitation: ['link', 'inviter.name', 'inviter.email', 'expiresInDays'],
  new_sign_in: ['link', 'signIn.time', 'signIn.device', 'signIn.location', 'signIn.ip'],
  account_locked: ['link'],
  email_change: ['link', 'newEmail', 'expiresInMinutes'],
  account_deleted: [],
};

export function templateVariables(key: TemplateKey): string[] {
  return [...COMMON_VARIABLES, ...OWN_VARIABLES[key]];
}

export function isTemplateKey(value: string): value is TemplateKey {
  return (TEMPLATE_KEYS as readonly string[]).includes(value);
}

const GREETING = '{{ user.name | default: "there" }}';

/** The shared HTML frame: logo, heading, paragraphs, an optional button, and a footer naming the sender. */
function layout(heading: string, paragraphs: readonly string[], button?: string): string {
  const action =
    button === undefined
      ? ''
      : `<p style="margin:24px 0"><a href="{{ link }}" style="display:inline-block;padding:12px 20px;border-radius:6px;` +
        `background:{{ branding.colors.primary }};color:#ffffff;text-decoration:none;font-weight:600">${button}</a></p>\n`;
  return [
    '<!doctype html>',
    '<html><body style="margin:0;padding:24px;background:{{ branding.colors.background }};color:{{ branding.colors.text }};' +
      'font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5">',
    '<div style="max-width:480px;margin:0 auto">',
    '{% if branding.logoUrl %}<img src="{{ branding.logoUrl }}" alt="{{ application.name }}" height="40">{% endif %}',
    `<h1 style="font-size:20px">${heading}</h1>`,
    ...paragraphs.map((paragraph) => `<p>${paragraph}</p>`),
    action +
      '<p style="font-size:12px;opacity:0.7">{{ application.name }}{% if tenant.name %} · {{ tenant.name }}{% endif %}</p>',
    '</div></body></html>',
    '',
  ].join('\n');
}

/** The plain-text part: the same words, the link on a line of its own. */
function plain(paragraphs: readonly string[], link = false): string {
  const text = paragraphs.map((paragraph) => paragraph.replace(/<[^>]+>/g, ''));
  const lines = [`Hi ${GREETING},`, '', ...text.flatMap((paragraph) => [paragraph, ''])];
  if (link) lines.push('{{ link }}', '');
  lines.push('— {{ application.name }}{% if tenant.name %} · {{ tenant.name }}{% endif %}', '');
  return lines.join('\n');
}

function template(subject: string, heading: string, paragraphs: readonly string[], button?: string): TemplateContent {
  return {
    subject,
    html: layout(heading, [`Hi ${GREETING},`, ...paragraphs], button),
    text: plain(paragraphs, button !== undefined),
  };
}

export const DEFAULT_TEMPLATES: Readonly<Record<TemplateKey, TemplateContent>> = {
  verify_email: template(
    'Verify your e-mail address for {{ application.name }}',
    'Verify your e-mail address',
    ['Please confirm that {{ user.email }} is your e-mail address. The link expires in {{ expiresInMinutes }} minutes.'],
    'Verify e-mail address',
  ),
  // Also the notice to an account's owner when someone signs up with its address (`existingAccount`).
  welcome: template(
    '{% if existingAccount %}You already have a {{ application.name }} account{% else %}Welcome to {{ application.name }}{% endif %}',
    'Welcome to {{ application.name }}',
    [
      '{% if existingAccount %}Someone tried to create an account with {{ user.email }}, which already has one. ' +
        'If it was you, sign in; if you forgot your password, reset it from the sign-in page. If not, you can ignore this e-mail.' +
        '{% else %}Your account {{ user.email }} is ready. You can sign in at any time.{% endif %}',
    ],
    'Sign in',
  ),
  magic_link: template(
    'Your sign-in link for {{ application.name }}',
    'Sign in to {{ application.name }}',
    [
      'Use the link below to sign in. It works once and expires in {{ expiresInMinutes }} minutes.',
      'If you did not ask for it, you can ignore this e-mail.',
    ],
    'Sign in',
  ),
  password_reset: template(
    'Reset your {{ application.name }} password',
    'Reset your password',
    [
      'Someone asked to reset the password of {{ user.email }}. The link expires in {{ expiresInMinutes }} minutes.',
      'If it was not you, ignore this e-mail: your password stays as it is.',
    ],
    'Choose a new password',
  ),
  password_changed: template(
    'Your {{ application.name }} password was changed',
    'Your password was changed',
    [
      'The password of {{ user.email }} was changed on {{ changedAt }}.',
      'If you did not do this, reset your password now and contact support.',
    ],
    'Reset password',
  ),
  email_otp: template(
    '{{ code }} is your {{ application.name }} code',
    'Your one-time code',
    [
      'Enter this code to continue: <strong style="font-size:22px;letter-spacing:4px">{{ code }}</strong>',
      'It expires in {{ expiresInMinutes }} minutes. Never share it with anyone.',
    ],
  ),
  mfa_enrolled: template(
    'A sign-in method was added to your {{ application.name }} account',
    'New second factor added',
    [
      '{{ factor }} was added as a second factor to {{ user.email }}.',
      'If this was not you, review your security settings now.',
    ],
    'Review security settings',
  ),
  invitation: template(
    '{{ inviter.name | default: "Someone" }} invited you to {{ tenant.name | default: application.name }}',
    'You are invited',
    [
      '{{ inviter.name | default: "Someone" }} invited you to join {{ tenant.name | default: application.name }} on {{ application.name }}.',
      'The invitation expires in {{ expiresInDays }} days.',
    ],
    'Accept invitation',
  ),
  new_sign_in: template(
    'New sign-in to your {{ application.name }} account',
    'New sign-in',
    [
      'We noticed a new sign-in to {{ user.email }} on {{ signIn.time }} from {{ signIn.device }} in {{ signIn.location }} (IP {{ signIn.ip }}).',
      'If this was you, there is nothing to do. If not, secure your account now.',
    ],
    'Secure my account',
  ),
  account_locked: template(
    'Your {{ application.name }} account is locked',
    'Your account is locked',
    [
      'After too many failed sign-in attempts we locked {{ user.email }} to protect it.',
      'Reset your password to unlock it.',
    ],
    'Reset password',
  ),
  email_change: template(
    'Confirm your new e-mail address for {{ application.name }}',
    'Confirm your new e-mail address',
    [
      'Confirm that {{ newEmail }} should replace {{ user.email }} as your sign-in address. The link expires in {{ expiresInMinutes }} minutes.',
      'If you did not ask for this change, ignore this e-mail.',
    ],
    'Confirm new address',
  ),
  account_deleted: template(
    'Your {{ application.name }} account was deleted',
    'Your account was deleted',
    [
      'The account {{ user.email }} and its data were deleted.',
      'If you did not ask for this, contact support.',
    ],
  ),
};
