import type { ReactNode } from 'react';
import type { LockoutPolicy, MfaPolicy, PasswordPolicy, Policies, PolicyKind, SessionPolicy } from '../operations-email-auth.ts';
import { MFA_FACTOR_CHOICES, POLICY_FORMS } from '../policy-fields.ts';

type Policy = Policies[PolicyKind];

/** Minutes as the largest whole unit that fits: "3 days", "90 minutes". */
function duration(minutes: number): string {
  const [count, unit] = minutes % 1440 === 0 ? [minutes / 1440, 'day'] : minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

function password(policy: PasswordPolicy): string[] {
  const required = [
    policy.requireUppercase && 'upper case',
    policy.requireLowercase && 'lower case',
    policy.requireDigit && 'digit',
    policy.requireSymbol && 'symbol',
  ].filter((part) => part !== false);
  return [
    `at least ${policy.minLength} characters`,
    required.length === 0 ? 'no character classes required' : `needs ${required.join(', ')}`,
    policy.maxAge === null ? 'never expires' : `expires after ${policy.maxAge} days`,
    policy.disallowCommon ? 'common passwords refused' : 'common passwords allowed',
    policy.historyCount === 0 ? 'earlier passwords may be reused' : `the last ${policy.historyCount} passwords may not be reused`,
  ];
}

function mfa(policy: MfaPolicy): string[] {
  if (policy.enforcement === 'off') return ['off'];
  const labelOf = (factor: string) => MFA_FACTOR_CHOICES.find((choice) => choice.value === factor)?.label;
  const factors = policy.factors.map((factor) => {
    const label = labelOf(factor);
    return label === undefined ? factor : label[0]!.toLowerCase() + label.slice(1);
  });
  const days = policy.rememberDeviceDays;
  return [policy.enforcement, `factors: ${factors.join(', ')}`, days === 0 ? 'asked at every sign-in' : `a browser is remembered ${days} day${days === 1 ? '' : 's'}`];
}

function session(policy: SessionPolicy): string[] {
  return [
    `ends after ${duration(policy.idleTimeoutMinutes)} idle`,
    `after ${duration(policy.absoluteTimeoutMinutes)} at most`,
    policy.singleSession ? 'one session per user' : 'several sessions per user',
  ];
}

function lockout(policy: LockoutPolicy): string[] {
  if (!policy.enabled) return ['off'];
  return [
    `after ${policy.maxAttempts} failed sign-ins from one address`,
    policy.lockoutMinutes === null ? 'locked until an administrator unlocks it' : `locked for ${duration(policy.lockoutMinutes)}`,
    policy.accountLockAddresses === null ? 'the account itself is never locked' : `the account locks at ${policy.accountLockAddresses} locked-out addresses`,
  ];
}

/** The four policies in display order, each with its name and main values. */
function rowsOf(policies: Policies): readonly { label: string; policy: Policy; values: string[] }[] {
  return [
    { label: POLICY_FORMS.password.label, policy: policies.password, values: password(policies.password) },
    { label: POLICY_FORMS.mfa.label, policy: policies.mfa, values: mfa(policies.mfa) },
    { label: POLICY_FORMS.session.label, policy: policies.session, values: session(policies.session) },
    { label: POLICY_FORMS.lockout.label, policy: policies.lockout, values: lockout(policies.lockout) },
  ];
}

interface PoliciesTableProps {
  policies: Policies;
  /** A policy's badge (and removal), for a tenant that may hold its own; no Source column without it. */
  badge?: (policy: Policy) => ReactNode;
}

/** The four policies of one scope with their main values. */
export function PoliciesTable({ policies, badge }: PoliciesTableProps) {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Policy</th>
          <th scope="col">Main values</th>
          {badge !== undefined && <th scope="col">Source</th>}
        </tr>
      </thead>
      <tbody>
        {rowsOf(policies).map(({ label, policy, values }) => (
          <tr key={policy.kind}>
            <th scope="row">{label}</th>
            <td>{values.join('; ')}</td>
            {badge !== undefined && <td>{badge(policy)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
