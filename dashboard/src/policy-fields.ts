import type { PolicyKind } from './operations-email-auth.ts';
import type { SettingField } from './setting-fields.ts';

/** A policy as its form shows it: its name, and every field of schema/policies.graphql's PolicyInput for its kind. */
export interface PolicyForm {
  readonly label: string;
  readonly fields: readonly SettingField[];
}

const boolean = (name: string, label: string, hint?: string): SettingField => ({ kind: 'boolean', name, label, hint, initial: false });
const number = (name: string, label: string, hint: string): SettingField => ({ kind: 'number', name, label, hint });

/** The MFA policy's factors, as its form and its summary name them. */
export const MFA_FACTOR_CHOICES = [
  { value: 'totp', label: 'Authenticator app (TOTP)' },
  { value: 'webauthn', label: 'Security key or passkey (WebAuthn)' },
  { value: 'email_otp', label: 'One-time code by e-mail' },
] as const;

export const POLICY_FORMS: Readonly<Record<PolicyKind, PolicyForm>> = {
  password: {
    label: 'Password',
    fields: [
      number('minLength', 'Minimum length', '8 to 128 characters.'),
      boolean('requireUppercase', 'Require an upper-case letter'),
      boolean('requireLowercase', 'Require a lower-case letter'),
      boolean('requireDigit', 'Require a digit'),
      boolean('requireSymbol', 'Require a symbol'),
      number('maxAge', 'Expires after (days)', '1 to 3650; empty: never.'),
      boolean('disallowCommon', 'Refuse common passwords'),
      number('historyCount', 'Earlier passwords refused', '0 to 24: how many of the last passwords may not be reused.'),
    ],
  },
  mfa: {
    label: 'MFA',
    fields: [
      {
        kind: 'choice',
        name: 'enforcement',
        label: 'Second factor',
        choices: [
          { value: 'optional', label: 'Optional: asked once a user enrolls one' },
          { value: 'required', label: 'Required of every user' },
          { value: 'off', label: 'Off' },
        ],
      },
      {
        kind: 'choices',
        name: 'factors',
        label: 'Factors users may enroll',
        initial: [],
        choices: MFA_FACTOR_CHOICES,
      },
      number('rememberDeviceDays', 'Remember a browser for (days)', '0 to 365; 0: ask at every sign-in.'),
    ],
  },
  session: {
    label: 'Session',
    fields: [
      number('idleTimeoutMinutes', 'Idle timeout (minutes)', '5 to 525600, not above the absolute timeout.'),
      number('absoluteTimeoutMinutes', 'Absolute timeout (minutes)', '5 to 525600: a session ends this long after sign-in.'),
      boolean('singleSession', 'One session per user', 'A new sign-in ends the user’s other sessions.'),
      boolean('notifyNewBrowser', 'Mail the user about a sign-in from a new browser'),
    ],
  },
  lockout: {
    label: 'Lockout',
    fields: [
      boolean('enabled', 'Lock accounts after failed sign-ins'),
      number('maxAttempts', 'Failed sign-ins that lock an address out', '3 to 100, consecutive, from one client address.'),
      number('lockoutMinutes', 'Lock lasts (minutes)', '1 to 10080; empty: until an administrator unlocks the user.'),
      number('resetAfterMinutes', 'Count starts again after (minutes)', '1 to 10080 without a failure from the address.'),
      number('accountLockAddresses', 'Locked-out addresses that lock the account', '2 to 1000; empty: the account itself is never locked.'),
    ],
  },
};

export const POLICY_KINDS = Object.keys(POLICY_FORMS) as PolicyKind[];
