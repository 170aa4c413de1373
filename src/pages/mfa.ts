import qrcode from 'qrcode-generator';
import { document, escapeHtml, field, formError, hidden, text, type CopyKey, type PageLook, type RenderedPage } from './pages.ts';
import { webauthnForm } from './webauthn.ts';
import type { FactorKind } from '../domain/mfa/factors.ts';

/**
 * The MFA step's pages (src/hosted/mfa.ts): the TOTP QR code is inline SVG, which the pages' CSP allows. Every form
 * posts `action` and `method` to the step's one address.
 */
export type StepMethod = 'totp' | 'webauthn' | 'email_otp' | 'recovery_code';

const METHOD_TEXT: Readonly<Record<StepMethod, CopyKey>> = {
  totp: 'mfa.totpText',
  webauthn: 'mfa.webauthnText',
  email_otp: 'mfa.emailText',
  recovery_code: 'mfa.recoveryText',
};
const METHOD_LINK: Readonly<Record<StepMethod, CopyKey>> = { totp: 'mfa.useTotp', webauthn: 'mfa.useWebauthn', email_otp: 'mfa.useEmail', recovery_code: 'mfa.useRecovery' };

export interface ChallengePageInput {
  readonly action: string;
  readonly csrf: string;
  readonly method: StepMethod;
  readonly others: readonly { readonly method: StepMethod; readonly url: string }[];
  readonly email: string;
  readonly sent?: boolean;
  readonly error?: boolean;
  /** The ceremony the form runs instead of a code. */
  readonly webauthn?: { readonly options: unknown };
  /** When none of the user's keys works on this one (a challenge). */
  readonly keyHosts?: readonly string[];
}

/** The sealed secret is posted back with the first code. */
export interface TotpSetup {
  readonly secret: string;
  readonly uri: string;
  readonly sealed: string;
}

export interface EnrolPageInput extends ChallengePageInput {
  readonly totp?: TotpSetup;
}

function webauthnStepForm(look: PageLook, input: ChallengePageInput, options: unknown, enrol: boolean): string {
  const error = input.error === true ? text(look, 'mfa.webauthnError') : undefined;
  const name = enrol
    ? field({ id: 'name', label: text(look, 'mfa.keyName'), type: 'text', autocomplete: 'off', attributes: ' maxlength="100"', describedBy: [], invalid: false, focus: true })
    : '';
  return (
    formError('form-error', error) +
    webauthnForm({
      action: input.action,
      csrf: input.csrf,
      ceremony: enrol ? 'create' : 'get',
      options,
      fields: hidden('method', 'webauthn') + hidden('action', 'verify') + name,
      label: text(look, 'mfa.webauthnSubmit'),
    }) +
    otherMethods(look, input.others)
  );
}

/** Sending an e-mail code needs no code. */
function codeForm(look: PageLook, input: ChallengePageInput, extraHidden = ''): string {
  const error = input.error === true ? text(look, 'mfa.error') : undefined;
  const recovery = input.method === 'recovery_code';
  return (
    (input.sent === true ? `<p class="notice" role="status">${text(look, 'mfa.sent', { email: input.email })}</p>\n` : '') +
    formError('form-error', error) +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('csrf', input.csrf)}${hidden('method', input.method)}${extraHidden}` +
    field({
      id: 'code',
      label: text(look, recovery ? 'mfa.recoveryCode' : 'mfa.code'),
      type: 'text',
      autocomplete: recovery ? 'off' : 'one-time-code',
      attributes: recovery ? ' spellcheck="false" autocapitalize="none" maxlength="64"' : ' inputmode="numeric" pattern="[0-9 ]*" maxlength="8"',
      describedBy: error === undefined ? [] : ['form-error'],
      invalid: error !== undefined,
      focus: true,
    }) +
    `<button type="submit" name="action" value="verify">${text(look, 'mfa.submit')}</button>\n` +
    (input.method === 'email_otp' ? `<button type="submit" class="secondary" name="action" value="send" formnovalidate>${text(look, 'mfa.send')}</button>\n` : '') +
    `</form>\n` +
    otherMethods(look, input.others)
  );
}

function otherMethods(look: PageLook, others: ChallengePageInput['others']): string {
  if (others.length === 0) return '';
  const items = others.map((other) => `<li><a href="${escapeHtml(other.url)}">${text(look, METHOD_LINK[other.method])}</a></li>`).join('\n');
  return `<nav class="alt" aria-label="${text(look, 'mfa.other')}"><ul>\n${items}\n</ul></nav>\n`;
}

/** Browsers enforce that a key works only on the host it was registered on. */
const keyHostsText = (look: PageLook, keyHosts: readonly string[] = [], key: CopyKey = 'mfa.keyElsewhere') =>
  keyHosts.length === 0 ? '' : `<p>${text(look, key, { host: keyHosts.join(', ') })}</p>\n`;

export function challengePage(look: PageLook, nonce: string, input: ChallengePageInput): RenderedPage {
  const body =
    `<h1>${text(look, 'mfa.title')}</h1>\n<p class="subtitle">${text(look, METHOD_TEXT[input.method], { email: input.email })}</p>\n` +
    keyHostsText(look, input.keyHosts) +
    (input.webauthn === undefined ? codeForm(look, input) : webauthnStepForm(look, input, input.webauthn.options, false));
  return document(look, nonce, text(look, 'mfa.title'), body, input.error === true);
}

/**
 * Nothing to do here: the only factors are keys of other hosts, or of the kind the first factor already was (`spent`):
 * that key would have to verify the user to be both factors.
 */
export function noStepPage(look: PageLook, nonce: string, input: { keyHosts: readonly string[]; spent: FactorKind | undefined }): RenderedPage {
  const said =
    input.keyHosts.length > 0
      ? keyHostsText(look, input.keyHosts, 'mfa.keyElsewhereOnly')
      : `<p>${text(look, input.spent === 'email_otp' ? 'mfa.mailboxOnly' : 'mfa.keyUnverified')}</p>\n`;
  return document(look, nonce, text(look, 'mfa.title'), `<h1>${text(look, 'mfa.title')}</h1>\n${said}`);
}

/** Named for screen readers. */
function qrSvg(look: PageLook, uri: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(uri);
  qr.make();
  // A function: a replacement string would read `$'` or `$&` in the branding's text as patterns, pasting markup in.
  return qr.createSvgTag(4, 4).replace('<svg ', () => `<svg role="img" aria-label="${text(look, 'mfa.qrLabel')}" `);
}

export const totpSetup = (look: PageLook, totp: TotpSetup): string =>
  `<p class="qr">${qrSvg(look, totp.uri)}</p>\n` +
  `<p>${text(look, 'mfa.key')}: <code>${escapeHtml(totp.secret.replace(/(.{4})(?=.)/g, '$1 '))}</code></p>\n` +
  `<p>${text(look, 'mfa.uri')}: <code>${escapeHtml(totp.uri)}</code></p>\n`;

export function enrolPage(look: PageLook, nonce: string, input: EnrolPageInput): RenderedPage {
  const { totp } = input;
  const setup =
    input.webauthn !== undefined
      ? `<p>${text(look, 'mfa.enrolWebauthnText')}</p>\n`
      : totp === undefined
      ? `<p>${text(look, METHOD_TEXT[input.method], { email: input.email })}</p>\n`
      : `<p>${text(look, 'mfa.enrolTotpText')}</p>\n${totpSetup(look, totp)}`;
  const body =
    `<h1>${text(look, 'mfa.enrolTitle')}</h1>\n<p class="subtitle">${text(look, 'mfa.enrolText')}</p>\n` +
    setup +
    (input.webauthn === undefined ? codeForm(look, input, totp === undefined ? '' : hidden('enrol', totp.sealed)) : webauthnStepForm(look, input, input.webauthn.options, true));
  return document(look, nonce, text(look, 'mfa.enrolTitle'), body, input.error === true);
}

/** Shown this once. */
export function recoveryCodesPage(look: PageLook, nonce: string, input: { action: string; csrf: string; codes: readonly string[] }): RenderedPage {
  const body =
    `<h1>${text(look, 'mfa.codesTitle')}</h1>\n<p>${text(look, 'mfa.codesText')}</p>\n` +
    `<ul>\n${input.codes.map((code) => `<li><code>${escapeHtml(code)}</code></li>`).join('\n')}\n</ul>\n` +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('csrf', input.csrf)}` +
    `<button type="submit" name="action" value="continue">${text(look, 'mfa.continue')}</button>\n</form>\n`;
  return document(look, nonce, text(look, 'mfa.codesTitle'), body);
}
