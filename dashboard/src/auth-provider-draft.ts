import { secretDestination } from '../../src/domain/auth-providers/secret-destination.ts';
import { AUTH_PROVIDER_KINDS, secretsOf } from './auth-provider-kinds.ts';
import type { CreateAuthProviderInput, UpdateAuthProviderInput } from './operations-auth.ts';
import type { AuthProvider, AuthProviderType } from './operations-email-auth.ts';
import { draftOf, valuesOf, type SettingsDraft } from './setting-fields.ts';

/** A provider's form as typed; the secret fields start empty, since secrets are never read back. */
export interface ProviderDraft {
  readonly name: string;
  readonly enabled: boolean;
  readonly settings: SettingsDraft;
  readonly secrets: Readonly<Record<string, string>>;
}

/** A new provider of `type` (null) starts from the type's initial settings, enabled, its name left to the server. */
export function providerDraftOf(type: AuthProviderType, provider: AuthProvider | null): ProviderDraft {
  return {
    name: provider?.name ?? '',
    enabled: provider?.enabled ?? true,
    settings: draftOf(AUTH_PROVIDER_KINDS[type].fields, provider?.config ?? {}),
    secrets: {},
  };
}

/** The draft as kept past a session's end: every secret typed blanked (kept-drafts.ts). */
export function withoutSecrets(draft: ProviderDraft): ProviderDraft {
  return { ...draft, secrets: Object.fromEntries(Object.keys(draft.secrets).map((name) => [name, ''])) };
}

/** Another OAuth preset clears Scopes left as the form opened with them, so the server gives the new preset's defaults;
 *  scopes typed in the form stay. */
export function changedSettings(type: AuthProviderType, provider: AuthProvider | null, before: SettingsDraft, after: SettingsDraft): SettingsDraft {
  if (type !== 'oauth' || after['provider'] === before['provider']) return after;
  return after['scopes'] === providerDraftOf(type, provider).settings['scopes'] ? { ...after, scopes: '' } : after;
}

/** The server keeps the stored secrets only while an OAuth provider's token endpoint stays: another one gets its own. */
export function keepsStoredSecrets(type: AuthProviderType, provider: AuthProvider | null, draft: ProviderDraft): boolean {
  if (provider === null) return false;
  return type !== 'oauth' || secretDestination(valuesOf(AUTH_PROVIDER_KINDS[type].fields, draft.settings)) === secretDestination(provider.config);
}

/** The secrets typed for this configuration: one left empty is not sent, which keeps a stored one. */
function typedSecrets(type: AuthProviderType, draft: ProviderDraft): Record<string, string> {
  const typed = secretsOf(AUTH_PROVIDER_KINDS[type], draft.settings).map(({ name }) => [name, draft.secrets[name] ?? ''] as const);
  return Object.fromEntries(typed.filter(([, value]) => value !== ''));
}

export function createInputOf(type: AuthProviderType, draft: ProviderDraft): CreateAuthProviderInput {
  const name = draft.name.trim();
  return {
    type,
    ...(name === '' ? {} : { name }),
    enabled: draft.enabled,
    config: valuesOf(AUTH_PROVIDER_KINDS[type].fields, draft.settings),
    secrets: typedSecrets(type, draft),
  };
}

/** Every setting that applies is sent (an emptied one as null, its default again); the name as typed, for the server to judge. */
export function updateInputOf(type: AuthProviderType, draft: ProviderDraft): UpdateAuthProviderInput {
  return {
    name: draft.name.trim(),
    enabled: draft.enabled,
    config: valuesOf(AUTH_PROVIDER_KINDS[type].fields, draft.settings),
    secrets: typedSecrets(type, draft),
  };
}
