import { LOCALES, type Locale } from '../domain/locales.ts';
import type { FactorKind } from '../domain/mfa/factors.ts';
import type { MfaEnforcement, PasswordPolicy } from '../domain/policies/definitions.ts';
import type { DeviceSummary } from '../domain/sign-in/device.ts';
import { deviceText } from './device-text.ts';
import { totpSetup, type TotpSetup } from './mfa.ts';
import { document, emailField, escapeHtml, field, formError, hidden, notice, onwardLink, passwordRules, plainText, said, text, type CopyKey, type CopyText, type Onward, type PageLook, type RenderedPage } from './pages.ts';
import { webauthnForm } from './webauthn.ts';

/**
 * The hosted account page (src/hosted/account.ts): one <section> per entry of the section list, each with its own
 * form posting to its own address; the last change's result is shown in the section it concerns.
 */

/** What every section's form carries: where it posts, its CSRF token and the page's own parameters (client, tenant). */
export interface AccountForm {
  readonly action: string;
  readonly csrf: string;
  /** The page's user, sealed: what a form posted once their session is gone still says of them. */
  readonly holder: string;
  readonly params: Readonly<Record<string, string>>;
}

/** One of the user's sessions as the page lists it; `tenant`: the name of the tenant it signed in to, if any. */
export interface AccountSession {
  readonly current: boolean;
  readonly device: DeviceSummary;
  readonly tenant: string | null;
  readonly ip: string | null;
  readonly createdAt: Date;
  readonly lastActiveAt: Date;
}

/** An app or device that stays signed in with no browser session (src/domain/sessions/own-sessions.ts): its client's name. */
export interface AccountApp {
  readonly client: string;
  readonly tenant: string | null;
  readonly createdAt: Date;
  readonly lastActiveAt: Date;
}

/** The user's sign-ins as the page lists them, and what "Sign out everywhere else" ends. */
export interface AccountSignIns {
  /** This browser's first. */
  readonly sessions: readonly AccountSession[];
  readonly apps: readonly AccountApp[];
  /** How many more there are, not listed. */
  readonly unlisted: number;
  /** How many end elsewhere, listed or not: the button is shown when there is any. */
  readonly others: number;
  /** Where they are: for the page's tenant and the user's others (`tenants`), every tenant of theirs (`every`: a page of none), or the page's. */
  readonly reach: 'page' | 'tenants' | 'every';
}

export interface AccountPasskey {
  readonly id: string;
  readonly name: string;
  /** The host it signs in on. */
  readonly rpId: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
}

/** What the page shows of the user, and the outcome of their last change, for every section. */
export interface AccountView {
  readonly email: string;
  readonly name: string | null;
  /** Whether the user has a password, which adding or removing a key takes (a user without one proves none). */
  readonly hasPassword: boolean;
  /** A user without a password whose sign-in proved nothing here (an upstream's, a SAML IdP's): a change takes a mailed code first. */
  readonly confirmationDue: boolean;
  readonly passwordPolicy: PasswordPolicy;
  readonly signIns: AccountSignIns;
  readonly mfa: AccountMfa;
  /** The user's passkeys and security keys, and the options of the form that adds one; absent: the surface offers none. */
  readonly passkeys?: { readonly keys: readonly AccountPasskey[]; readonly options: unknown };
  /** The change just made (a notice in its section). */
  readonly done?: CopyKey | undefined;
  /**
   * A refused change: its section and what the page says of it; `name`, `email`: the name or new address as typed, shown
   * again; `signInAgain`: the sign-in a change asked to be recent.
   */
  readonly refused?:
    | { readonly section: string; readonly errors: readonly CopyText[]; readonly name?: string; readonly email?: string; readonly signInAgain?: string | undefined }
    | undefined;
}

/** The user's second step as the page shows it (src/domain/mfa/own-factors.ts). */
export interface AccountMfa {
  readonly enforcement: MfaEnforcement;
  readonly factors: readonly { readonly id: string; readonly kind: FactorKind }[];
  /** The kinds the user may add now. */
  readonly addable: readonly FactorKind[];
  readonly unusedRecoveryCodes: number;
  /** A new TOTP secret, offered while an authenticator app may be added. */
  readonly totp?: TotpSetup | undefined;
  /** Recovery codes just issued, shown this once. */
  readonly codes?: readonly string[] | undefined;
}

/** `id`: its heading's anchor. */
export interface AccountSectionView {
  readonly id: string;
  readonly title: CopyKey;
  readonly body: (look: PageLook, view: AccountView, form: (action: string) => AccountForm) => string;
  /** Whether the page shows it to this user (default: always). */
  readonly shown?: (view: AccountView) => boolean;
}

const formStart = (form: AccountForm) =>
  `<form method="post" action="${escapeHtml(form.action)}">\n${hidden('csrf', form.csrf)}${hidden('holder', form.holder)}${Object.entries(form.params)
    .map(([name, value]) => hidden(name, value))
    .join('')}`;

/** The section's refusal, when the last change it made was refused: its messages, announced. */
function refusalOf(look: PageLook, section: string, view: AccountView): { errors: string[]; html: string } {
  const { refused } = view;
  if (refused?.section !== section) return { errors: [], html: '' };
  const errors = refused.errors.map((error) => said(look, error));
  const signIn = refused.signInAgain === undefined ? '' : ` <a href="${escapeHtml(refused.signInAgain)}">${text(look, 'account.signInAgainLink')}</a>`;
  return { errors, html: formError(`${section}-error`, errors.join('<br>') + signIn) };
}

export const NAME_SECTION: AccountSectionView = {
  id: 'name',
  title: 'account.nameTitle',
  body: (look, view, form) => {
    const refusal = refusalOf(look, 'name', view);
    const typed = view.refused?.section === 'name' ? (view.refused.name ?? '') : (view.name ?? '');
    return (
      refusal.html +
      formStart(form('name')) +
      field({
        id: 'name',
        label: text(look, 'account.name'),
        type: 'text',
        autocomplete: 'name',
        value: typed,
        required: false,
        describedBy: refusal.errors.length === 0 ? [] : ['name-error'],
        invalid: refusal.errors.length > 0,
        focus: true,
      }) +
      `<button type="submit">${text(look, 'account.nameSubmit')}</button>\n</form>\n`
    );
  },
};

export const PASSWORD_SECTION: AccountSectionView = {
  id: 'password',
  title: 'account.passwordTitle',
  body: (look, view, form) => {
    const refusal = refusalOf(look, 'password', view);
    const invalid = refusal.errors.length > 0;
    // An account without a password sets its first one.
    const current = view.hasPassword
      ? field({
          id: 'current_password',
          label: text(look, 'account.currentPassword'),
          type: 'password',
          autocomplete: 'current-password',
          describedBy: invalid ? ['password-error'] : [],
          invalid,
          focus: true,
        })
      : `<p>${text(look, 'account.noPasswordYet')}</p>\n`;
    return (
      refusal.html +
      formStart(form('password')) +
      // The account's e-mail for password managers, which save the new password under it.
      `<input type="hidden" name="username" autocomplete="username" value="${escapeHtml(view.email)}">\n` +
      current +
      field({
        id: 'new_password',
        label: text(look, 'account.newPassword'),
        type: 'password',
        autocomplete: 'new-password',
        describedBy: [...(invalid ? ['password-error'] : []), 'password-rules'],
        invalid,
        focus: !view.hasPassword,
        extra: `<p id="password-rules" class="hint">${passwordRules(look, view.passwordPolicy)}</p>\n`,
      }) +
      `<button type="submit">${text(look, view.hasPassword ? 'account.passwordSubmit' : 'account.setPasswordSubmit')}</button>\n</form>\n`
    );
  },
};

/** Each factor kind's name on the page: a new kind must be named here to be listed. */
const FACTOR_NAMES: Readonly<Record<FactorKind, CopyKey>> = { totp: 'account.factor.totp', email_otp: 'account.factor.email_otp', webauthn: 'account.factor.webauthn' };

/** A password field confirming a form of the section (`id`: its name too, unique on the page). */
const confirmPassword = (look: PageLook, id: string, refusal: { errors: string[] }, errorId: string) =>
  field({
    id,
    label: text(look, 'account.confirmPassword'),
    type: 'password',
    autocomplete: 'current-password',
    describedBy: refusal.errors.length === 0 ? [] : [errorId],
    invalid: refusal.errors.length > 0,
    focus: refusal.errors.length > 0,
  });

/** The new address and the current password; the link mailed to it makes the change (src/hosted/account-links.ts). */
export const EMAIL_SECTION: AccountSectionView = {
  id: 'email',
  title: 'account.emailTitle',
  body: (look, view, form) => {
    const refusal = refusalOf(look, 'email', view);
    // The field at fault: the password, or the address (kept as typed either way); a sign-in asked again is neither's.
    const unproven = (key: string) => view.refused?.section === 'email' && view.refused.errors.some((error) => error.key === key);
    const wrongPassword = unproven('account.wrongPassword');
    const addressRefused = refusal.errors.length > 0 && !wrongPassword && !unproven('account.signInAgain') && !unproven('account.confirmFirst');
    return (
      `<p>${text(look, 'account.emailChangeText', { email: view.email })}</p>\n` +
      refusal.html +
      formStart(form('email')) +
      // Not the account's username for password managers: that is the current address until the link is opened.
      emailField({
        id: 'new_email',
        autocomplete: 'email',
        label: text(look, 'account.newEmail'),
        value: view.refused?.section === 'email' ? view.refused.email : undefined,
        describedBy: addressRefused ? ['email-error'] : [],
        invalid: addressRefused,
        focus: addressRefused,
      }) +
      (view.hasPassword ? confirmPassword(look, 'email_password', wrongPassword ? refusal : { errors: [] }, 'email-error') : '') +
      `<button type="submit">${text(look, 'account.emailChangeSubmit')}</button>\n</form>\n`
    );
  },
};

const codeField = (look: PageLook, id: string, label: CopyKey, refusal: { errors: string[] }, errorId: string) =>
  field({
    id,
    label: text(look, label),
    type: 'text',
    autocomplete: 'one-time-code',
    attributes: ' inputmode="numeric" pattern="[0-9 ]*" maxlength="8"',
    describedBy: refusal.errors.length === 0 ? [] : [errorId],
    invalid: refusal.errors.length > 0,
    focus: refusal.errors.length > 0,
  });

/** A code mailed to the account's address, typed back: what proves a user without a password whose sign-in did not. */
export const CONFIRM_SECTION: AccountSectionView = {
  id: 'confirm',
  title: 'account.confirmTitle',
  shown: (view) => view.confirmationDue,
  body: (look, view, form) => {
    const refusal = refusalOf(look, 'confirm', view);
    return (
      `<p>${text(look, 'account.confirmText', { email: view.email })}</p>\n` +
      refusalOf(look, 'confirm-send', view).html +
      formStart(form('confirm-send')) +
      `<button type="submit" class="secondary">${text(look, 'account.emailSend')}</button>\n</form>\n` +
      refusal.html +
      formStart(form('confirm')) +
      codeField(look, 'confirm_code', 'account.emailCode', refusal, 'confirm-error') +
      `<button type="submit">${text(look, 'account.confirmSubmit')}</button>\n</form>\n`
    );
  },
};

const MFA_INTRO: Readonly<Record<MfaEnforcement, CopyKey>> = { off: 'account.mfaOff', optional: 'account.mfaOptional', required: 'account.mfaRequired' };

/**
 * The factors (one form removes one, proven as ownProofRefusal says), recovery codes (renewed, proven alike; shown
 * once, here), and a form per kind the user may add (TOTP proven by its first code; an e-mail code sent, then typed).
 */
export const MFA_SECTION: AccountSectionView = {
  id: 'mfa',
  title: 'account.mfaTitle',
  body: (look, view, form) => {
    const { mfa } = view;
    const factorName = (kind: FactorKind) => text(look, FACTOR_NAMES[kind], { email: view.email });
    const parts = [`<p>${text(look, MFA_INTRO[mfa.enforcement])}</p>\n`];
    if (mfa.codes !== undefined) {
      parts.push(
        `<div class="notice" role="status"><p>${text(look, 'account.codesShown')}</p>\n<ul>\n${mfa.codes.map((code) => `<li><code>${escapeHtml(code)}</code></li>`).join('\n')}\n</ul></div>\n`,
      );
    }
    // Keys are removed in their own section (PASSKEYS_SECTION); they are listed here as the second steps they are.
    const removable = mfa.factors.filter((factor) => factor.kind !== 'webauthn');
    if (mfa.factors.length === 0) parts.push(`<p>${text(look, 'account.mfaNone')}</p>\n`);
    else {
      const remove = refusalOf(look, 'mfa-remove', view);
      const options = removable.map((factor) => `<option value="${escapeHtml(factor.id)}">${factorName(factor.kind)}</option>`).join('');
      parts.push(
        `<ul aria-label="${text(look, 'account.factorsLabel')}">\n${mfa.factors.map((factor) => `<li>${factorName(factor.kind)}</li>`).join('\n')}\n</ul>\n` +
          (removable.length === 0
            ? ''
            : remove.html +
              formStart(form('mfa-remove')) +
              `<label for="factor">${text(look, 'account.removeFactor')}</label>\n<select id="factor" name="factor">${options}</select>\n` +
              (view.hasPassword ? confirmPassword(look, 'remove_password', remove, 'mfa-remove-error') : '') +
              `<button type="submit" class="secondary">${text(look, 'account.removeSubmit')}</button>\n</form>\n`),
      );
      const renew = refusalOf(look, 'mfa-recovery-codes', view);
      parts.push(
        `<h3>${text(look, 'account.recoveryTitle')}</h3>\n<p>${(mfa.unusedRecoveryCodes === 1 ? text(look, 'account.recoveryLeftOne') : text(look, 'account.recoveryLeft', { count: String(mfa.unusedRecoveryCodes) }))}</p>\n` +
          renew.html +
          formStart(form('mfa-recovery-codes')) +
          (view.hasPassword ? confirmPassword(look, 'codes_password', renew, 'mfa-recovery-codes-error') : '') +
          `<button type="submit" class="secondary">${text(look, 'account.recoverySubmit')}</button>\n</form>\n`,
      );
    }
    if (mfa.totp !== undefined) {
      const refusal = refusalOf(look, 'mfa-totp', view);
      parts.push(
        `<details${refusal.errors.length > 0 ? ' open' : ''}><summary>${text(look, 'account.addTotp')}</summary>\n<p>${text(look, 'mfa.enrolTotpText')}</p>\n` +
          totpSetup(look, mfa.totp) +
          refusal.html +
          formStart(form('mfa-totp')) +
          hidden('enrol', mfa.totp.sealed) +
          codeField(look, 'totp_code', 'account.totpCode', refusal, 'mfa-totp-error') +
          (view.hasPassword ? confirmPassword(look, 'totp_password', refusal, 'mfa-totp-error') : '') +
          `<button type="submit">${text(look, 'account.addTotpSubmit')}</button>\n</form>\n</details>\n`,
      );
    }
    if (mfa.addable.includes('email_otp')) {
      const refusal = refusalOf(look, 'mfa-email', view);
      parts.push(
        `<details${refusal.errors.length > 0 || view.done === 'account.emailSent' ? ' open' : ''}><summary>${text(look, 'account.addEmail')}</summary>\n` +
          `<p>${text(look, 'account.emailText', { email: view.email })}</p>\n` +
          formStart(form('mfa-email-send')) +
          `<button type="submit" class="secondary">${text(look, 'account.emailSend')}</button>\n</form>\n` +
          refusal.html +
          formStart(form('mfa-email')) +
          codeField(look, 'email_code', 'account.emailCode', refusal, 'mfa-email-error') +
          (view.hasPassword ? confirmPassword(look, 'email_factor_password', refusal, 'mfa-email-error') : '') +
          `<button type="submit">${text(look, 'account.addEmailSubmit')}</button>\n</form>\n</details>\n`,
      );
    }
    return parts.join('');
  },
};

/** Made once per language: a formatter costs far more to make than to use. */
const TIME_FORMATS = Object.fromEntries(
  LOCALES.map((locale) => [locale, new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })]),
) as Record<Locale, Intl.DateTimeFormat>;

/** A time as the page's language writes it, in UTC (the page has no script to learn the browser's zone). */
const shownTime = (look: PageLook, date: Date) => `${TIME_FORMATS[look.locale].format(date)} UTC`;

const SIGN_INS_TEXT = { page: 'account.sessionsText', tenants: 'account.sessionsTextTenants', every: 'account.sessionsTextEvery' } as const;

/** An item of the list: its name, then the hints of its tenant (if any) and its times. */
const signInItem = (look: PageLook, name: string, tenant: string | null, detail: string) =>
  `<li>${name}<br>${tenant === null ? '' : `<span class="hint">${text(look, 'account.sessionTenant', { tenant })}</span><br>`}<span class="hint">${detail}</span></li>`;

export const SESSIONS_SECTION: AccountSectionView = {
  id: 'sessions',
  title: 'account.sessionsTitle',
  body: (look, view, form) => {
    const { sessions, apps, unlisted, others, reach } = view.signIns;
    const times = (at: { createdAt: Date; lastActiveAt: Date }) => ({ createdAt: shownTime(look, at.createdAt), lastActiveAt: shownTime(look, at.lastActiveAt) });
    const items = [
      ...sessions.map((session) => {
        const device = deviceText(look, session.device, 'account.unknownDevice');
        const current = session.current ? ` <strong>(${text(look, 'account.thisBrowser')})</strong>` : '';
        return signInItem(look, device + current, session.tenant, text(look, 'account.sessionDetail', { ...times(session), ip: session.ip ?? '?' }));
      }),
      ...apps.map((app) => signInItem(look, escapeHtml(app.client), app.tenant, text(look, 'account.appDetail', times(app)))),
    ];
    const more = unlisted > 0 ? `<p class="hint">${text(look, 'account.moreSignIns', { count: String(unlisted) })}</p>\n` : '';
    // Ending them ends every other sign-in of the user, in every tenant of theirs: the button says how many, and where.
    const button = text(look, reach === 'page' ? 'account.signOutOthers' : 'account.signOutOthersTenants', { count: String(others) });
    return (
      `<p>${text(look, SIGN_INS_TEXT[reach])}</p>\n<ul class="sessions">\n${items.join('\n')}\n</ul>\n${more}` +
      (others > 0 ? `${formStart(form('sign-out-others'))}<button type="submit" class="secondary">${button}</button>\n</form>\n` : '')
    );
  },
};

/** Adding or removing a key takes the current password when the user has one. */
export const PASSKEYS_SECTION: AccountSectionView = {
  id: 'passkeys',
  title: 'account.passkeysTitle',
  body: (look, view, form) => {
    if (view.passkeys === undefined) return '';
    const { keys, options } = view.passkeys;
    const refusal = refusalOf(look, 'passkeys', view);
    const target = form('passkeys');
    const items = keys.map((key) => {
      // A value of the text below, which escapes it: escaped here too, a branding's `"` or `&` would show as `&#34;`.
      const lastUsedAt = key.lastUsedAt === null ? plainText(look, 'account.passkeyNeverUsed') : shownTime(look, key.lastUsedAt);
      const detail = text(look, 'account.passkeyDetail', { host: key.rpId, createdAt: shownTime(look, key.createdAt), lastUsedAt });
      return `<li>${escapeHtml(key.name)}<br><span class="hint">${detail}</span></li>`;
    });
    const options_ = keys.map((key) => `<option value="${escapeHtml(key.id)}">${escapeHtml(key.name)}</option>`).join('');
    const remove =
      keys.length === 0
        ? ''
        : formStart(target) +
          `<label for="remove">${text(look, 'account.passkeyToRemove')}</label>\n<select id="remove" name="remove">${options_}</select>\n` +
          (view.hasPassword ? confirmPassword(look, 'passkey_password', refusal, 'passkeys-error') : '') +
          `<button type="submit" class="secondary">${text(look, 'account.removeSubmit')}</button>\n</form>\n`;
    const params = Object.entries(target.params).map(([name, value]) => hidden(name, value)).join('');
    const adding = view.hasPassword ? confirmPassword(look, 'passkey_add_password', { errors: [] }, 'passkeys-error') : '';
    const name = field({
      id: 'passkey_name',
      label: text(look, 'account.passkeyName'),
      type: 'text',
      autocomplete: 'off',
      attributes: ' maxlength="100"',
      describedBy: refusal.errors.length === 0 ? [] : ['passkeys-error'],
      invalid: refusal.errors.length > 0,
    });
    return (
      `<p>${text(look, 'account.passkeysText')}</p>\n` +
      refusal.html +
      (keys.length === 0 ? `<p>${text(look, 'account.passkeysNone')}</p>\n` : `<ul class="sessions">\n${items.join('\n')}\n</ul>\n${remove}`) +
      webauthnForm({ action: target.action, csrf: target.csrf, ceremony: 'create', options, fields: params + name + adding, label: text(look, 'account.passkeyAdd') })
    );
  },
};

export function accountPage(look: PageLook, nonce: string, view: AccountView, sections: readonly AccountSectionView[], form: (action: string) => AccountForm): RenderedPage {
  const notice = view.done === undefined ? '' : `<p class="notice" role="status">${text(look, view.done)}</p>\n`;
  const body =
    `<h1>${text(look, 'account.title')}</h1>\n<p class="subtitle">${text(look, 'account.subtitle', { email: view.email })}</p>\n${notice}` +
    sections
      .filter((section) => section.shown?.(view) ?? true)
      .map((section) => `<section aria-labelledby="${section.id}-title">\n<h2 id="${section.id}-title">${text(look, section.title)}</h2>\n${section.body(look, view, form)}</section>\n`)
      .join('');
  return document(look, nonce, text(look, 'account.title'), body, view.refused !== undefined);
}

/** A page that ends a flow with a link to the account page (a password reset's). */
export function doneWithAccountLink(look: PageLook, nonce: string, title: CopyKey, message: CopyKey, accountUrl: string, onward?: Onward): RenderedPage {
  const links = [...(onward === undefined ? [] : [onwardLink(look, onward)]), `<a href="${escapeHtml(accountUrl)}">${text(look, 'account.link')}</a>`];
  return notice(look, nonce, text(look, title), [text(look, message), ...links], false);
}
