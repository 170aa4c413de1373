import type { DeviceSummary } from '../domain/sign-in/device.ts';
import { deviceText } from './device-text.ts';
import { document, escapeHtml, formError, hidden, notice, text, type CopyKey, type PageLook, type RenderedPage } from './pages.ts';

/** Sign-in by e-mail (src/hosted/magic-link.ts): the form, "check your email" with its code form, and a link opened elsewhere. */

export interface EmailFormsInput {
  readonly csrf: string;
  /** Absent: not offered. */
  readonly linkAction?: string;
  /** Absent: not offered. */
  readonly codeAction?: string;
  readonly email?: string;
  /** Then a heading sets these apart. */
  readonly belowPassword: boolean;
}

/** One button per method, each posting to its own `formaction`; ids differ from the password form's, which may stand above it. */
export function emailForms(look: PageLook, input: EmailFormsInput): string {
  const buttons = [
    ...(input.linkAction === undefined ? [] : [{ action: input.linkAction, label: text(look, 'email.linkSubmit') }]),
    ...(input.codeAction === undefined ? [] : [{ action: input.codeAction, label: text(look, 'email.codeSubmit') }]),
  ];
  if (buttons.length === 0) return '';
  const [first, ...others] = buttons;
  const value = input.email === undefined || input.email === '' ? '' : ` value="${escapeHtml(input.email)}"`;
  return (
    (input.belowPassword ? `<h2 class="alt">${text(look, 'email.heading')}</h2>\n` : '') +
    `<form method="post" action="${escapeHtml(first!.action)}">\n${hidden('csrf', input.csrf)}` +
    `<label for="signin-email">${text(look, 'email.email')}</label>\n` +
    `<input id="signin-email" name="email" type="text" autocomplete="username" inputmode="email" spellcheck="false" autocapitalize="none" required${value}>\n` +
    `<button type="submit">${first!.label}</button>\n` +
    others.map((button) => `<button type="submit" class="secondary" formaction="${escapeHtml(button.action)}">${button.label}</button>\n`).join('') +
    `</form>\n`
  );
}

export interface CheckEmailInput {
  readonly action: string;
  readonly csrf: string;
  readonly email: string;
  /** The text differs, the code form is the same (a link opened elsewhere gives a code too). */
  readonly sent: keyof typeof SENT_TEXT;
  /** To ask for another mail. */
  readonly againUrl: string;
  readonly error?: boolean;
}

const SENT_TEXT = { link: 'email.linkSentText', code: 'email.codeSentText', signupCode: 'passkeySignup.sentText' } as const satisfies Record<string, CopyKey>;

/** The same page whether the address has an account or not. */
export function checkEmailPage(look: PageLook, nonce: string, input: CheckEmailInput): RenderedPage {
  const error = input.error === true ? text(look, 'email.codeError') : undefined;
  const described = error === undefined ? '' : ' aria-describedby="form-error" aria-invalid="true" autofocus';
  const body =
    `<h1>${text(look, 'email.sentTitle')}</h1>\n` +
    `<p class="subtitle" role="status">${text(look, SENT_TEXT[input.sent], { email: input.email })}</p>\n` +
    formError('form-error', error) +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('csrf', input.csrf)}${hidden('email', input.email)}${hidden('sent', input.sent)}` +
    `<label for="code">${text(look, 'email.code')}</label>\n` +
    `<input id="code" name="code" type="text" autocomplete="one-time-code" inputmode="numeric" pattern="[0-9 ]*" maxlength="12" required${described}>\n` +
    `<button type="submit">${text(look, 'email.verifySubmit')}</button>\n</form>\n` +
    `<p class="alt"><a href="${escapeHtml(input.againUrl)}">${text(look, 'email.again')}</a></p>\n`;
  return document(look, nonce, text(look, 'email.sentTitle'), body, error !== undefined);
}

export interface AskedSignIn {
  readonly device: DeviceSummary;
  readonly at: Date;
  /** null: unknown. */
  readonly client: string | null;
}

export interface LinkConfirmInput {
  readonly confirmAction: string;
  readonly refuseAction: string;
  readonly token: string;
  readonly asked: AskedSignIn;
}

/** Relative: the reader's time zone is unknown, and a link lives for minutes. */
function askedWhen(look: PageLook, at: Date, now: Date): string {
  const minutes = Math.max(0, Math.round((now.getTime() - at.getTime()) / 60_000));
  const format = new Intl.RelativeTimeFormat(look.locale, { numeric: 'auto' });
  const words = minutes === 0 ? format.format(0, 'second') : minutes < 120 ? format.format(-minutes, 'minute') : format.format(-Math.round(minutes / 60), 'hour');
  return escapeHtml(words);
}

/** Nothing happens until the reader answers; "No" is the form's default (its first button, and Enter). */
export function linkConfirmPage(look: PageLook, nonce: string, input: LinkConfirmInput, now = new Date()): RenderedPage {
  const { asked } = input;
  const client = asked.client === null || asked.client === look.name ? asked.client : `${asked.client} (${look.name})`;
  const facts = [
    [text(look, 'email.askedDevice'), deviceText(look, asked.device)],
    [text(look, 'email.askedWhen'), askedWhen(look, asked.at, now)],
    ...(client === null ? [] : [[text(look, 'email.askedClient'), escapeHtml(client)]]),
  ];
  const body =
    `<h1>${text(look, 'email.confirmTitle')}</h1>\n<p class="subtitle">${text(look, 'email.confirmText')}</p>\n` +
    `<dl class="asked">\n${facts.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join('\n')}\n</dl>\n` +
    `<p role="alert">${text(look, 'email.confirmWarning')}</p>\n` +
    `<form method="post" action="${escapeHtml(input.refuseAction)}">\n${hidden('token', input.token)}` +
    `<button type="submit">${text(look, 'email.refuse')}</button>\n` +
    `<button type="submit" class="secondary" formaction="${escapeHtml(input.confirmAction)}">${text(look, 'email.confirm')}</button>\n</form>\n`;
  return document(look, nonce, text(look, 'email.confirmTitle'), body);
}

export function linkCodePage(look: PageLook, nonce: string, code: string): RenderedPage {
  return notice(look, nonce, text(look, 'email.codeTitle'), [`<span class="code">${escapeHtml(code)}</span>`, text(look, 'email.codeText')], false);
}

export function linkRefusedPage(look: PageLook, nonce: string): RenderedPage {
  return notice(look, nonce, text(look, 'email.refusedTitle'), [text(look, 'email.refusedText')], true);
}
