import { passwordExpired } from '../users/password-history.ts';
import type { SignInTarget } from './sign-in.ts';

/**
 * Whether a user who just proved their password must change it before the sign-in completes: it is older than the
 * `maxAge` days of their pool's password policy (the isolated tenant's, else the application's), as the cached surface
 * settings hold it.
 */
export async function mustChangePassword(target: SignInTarget, userId: string): Promise<boolean> {
  return passwordExpired(target.applicationScope.em, target.application.id, userId, target.passwordPolicy);
}
