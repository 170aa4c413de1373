import qrcode from 'qrcode-generator';
import { document, escapeHtml, field, formError, hidden, text, type CopyKey, type PageLook, type RenderedPage } from './pages.ts';
import { webauthnForm } from './webauthn.ts';
import type { FactorKind } from '../domain/mfa/factors.ts';

/**
 * The MFA step of the hosted sign-in (src/hosted/mfa.ts): the challenge, the enrolment (a TOTP QR code drawn here as
 * inline SVG, which the pages' CSP allows, with its `otpauth://` URI and key as text), and the recovery codes shown
 * once. Every form posts `action` (`verify`, `send`, `continue`) and `method` to the step's one address.
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
  /** The other methods the user may switch to, with the address of each one's page. */
  readonly others: readonly { readonly method: StepMethod; readonly url: string }[];
  /** The user's address, where an e-mail code goes. */
  readonly email: string;
  /** An e-mail code was just sent. */
  readonly sent?: boolean;
  readonly error?: boolean;
  /** WebAuthn (`method` webauthn): the options of the ceremony the form runs instead of a code. */
  readonly webauthn?: { readonly options: unknown };
  /** The hosts the user's keys work on, when none works on this one (a challenge). */
  readonly keyHosts?: readonly string[];
}

/** A TOTP secret being enrolled: the secret, its URI, and the sealed secret the form posts back with the first code. */
export interface TotpSetup {
  readonly secret: string;
  readonly uri: string;
  readonly sealed: string;
}

export interface EnrolPageInput extends ChallengePageInput {
  readonly totp?: TotpSetup;
}

/** The WebAuthn form: a button that asks the browser (an enrolment names the new key first). */
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

/** The code field and the buttons: verify, and for an e-mail code, send one (no code needed for that). */
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

/** Said with the challenge: a key works only on the host it was registered on (browsers enforce it). */
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
 * A step with nothing to do here, no recovery code left: the user's only factors are keys of other hosts (`keyHosts`),
 * or of the kind the first factor already was (`spent`): the key they signed in with, which must verify them to be
 * both factors, or the mailbox an e-mail sign-in used.
 */
export function noStepPage(look: PageLook, nonce: string, input: { keyHosts: readonly string[]; spent: FactorKind | undefined }): RenderedPage {
  const said =
    input.keyHosts.length > 0
      ? keyHostsText(look, input.keyHosts, 'mfa.keyElsewhereOnly')
      : `<p>${text(look, input.spent === 'email_otp' ? 'mfa.mailboxOnly' : 'mfa.keyUnverified')}</p>\n`;
  return document(look, nonce, text(look, 'mfa.title'), `<h1>${text(look, 'mfa.title')}</h1>\n${said}`);
}

/** The QR code of `uri`, as an SVG image named for screen readers. */
function qrSvg(look: PageLook, uri: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(uri);
  qr.make();
  return qr.createSvgTag(4, 4).replace('<svg ', `<svg role="img" aria-label="${text(look, 'mfa.qrLabel')}" `);
}

/** A TOTP secret as an app takes it: the QR code, the key typed by hand, and the URI (the account page's too). */
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

/** The recovery codes of a first enrolment, shown this once; Continue completes the sign-in. */
export function recoveryCodesPage(look: PageLook, nonce: string, input: { action: string; csrf: string; codes: readonly string[] }): RenderedPage {
  const body =
    `<h1>${text(look, 'mfa.codesTitle')}</h1>\n<p>${text(look, 'mfa.codesText')}</p>\n` +
    `<ul>\n${input.codes.map((code) => `<li><code>${escapeHtml(code)}</code></li>`).join('\n')}\n</ul>\n` +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('csrf', input.csrf)}` +
    `<button type="submit" name="action" value="continue">${text(look, 'mfa.continue')}</button>\n</form>\n`;
  return document(look, nonce, text(look, 'mfa.codesTitle'), body);
}
