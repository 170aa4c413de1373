import type { AuthProvider } from './operations-email-auth.ts';

/** Not ways to sign in: the API counts them in no sign-in set (src/domain/auth-providers/auth-providers.ts). */
const TOKEN_TYPES: readonly string[] = ['m2m', 'api_keys'];

export const signsIn = (provider: Pick<AuthProvider, 'type'>): boolean => !TOKEN_TYPES.includes(provider.type);

/** Whether disabling or deleting `provider` leaves its set with no enabled way to sign in (a tenant whose last own sign-in
 *  provider is deleted signs in with the application's again). */
export function leavesNoSignIn(providers: readonly AuthProvider[], provider: AuthProvider, change: 'disable' | 'delete'): boolean {
  if (!signsIn(provider) || !provider.enabled) return false;
  const others = providers.filter((other) => other.id !== provider.id && other.source === provider.source && signsIn(other));
  if (change === 'delete' && provider.source === 'customized' && others.length === 0) return false;
  return !others.some((other) => other.enabled);
}
