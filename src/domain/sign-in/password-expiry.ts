import { passwordExpired } from '../users/password-history.ts';
import type { SignInTarget } from './sign-in.ts';

/** Whether a user who just proved their password must change it: older than the pool policy's `maxAge` days. */
export async function mustChangePassword(target: SignInTarget, userId: string): Promise<boolean> {
  return passwordExpired(target.applicationScope.em, target.application.id, userId, target.passwordPolicy);
}
