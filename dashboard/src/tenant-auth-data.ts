import type { ErrorDetail } from './api.ts';

/** The kinds of `tenant_auth_data_remains`'s details, in words: one, many. */
const KINDS: Readonly<Record<string, readonly [string, string]>> = {
  auth_providers: ['auth provider of its own', 'auth providers of its own'],
  policies: ['policy of its own', 'policies of its own'],
  mfa_settings: ['MFA setting of its own', 'MFA settings of its own'],
  custom_domains: ['custom domain', 'custom domains'],
  users_with_duplicate_email: [
    'user whose e-mail address another tenant or the application also holds',
    'users whose e-mail addresses another tenant or the application also holds',
  ],
  users_with_duplicate_upstream_link: [
    'user whose upstream account another tenant or the application also links',
    'users whose upstream accounts another tenant or the application also links',
  ],
  users_with_duplicate_passkey: [
    'user whose passkey another tenant or the application also holds',
    'users whose passkeys another tenant or the application also holds',
  ],
};

/** "acme: 1 user whose e-mail address …": which tenant holds what, and how much, that keeps authentication isolated. */
export function describeTenantAuthData(detail: ErrorDetail): string {
  const tenant = detail['tenantSlug'] ?? detail['tenantId'];
  const kind = String(detail['kind']);
  const count = Number(detail['count']);
  const [one, many] = KINDS[kind] ?? [kind.replaceAll('_', ' '), kind.replaceAll('_', ' ')];
  return `${String(tenant)}: ${count} ${count === 1 ? one : many}`;
}
