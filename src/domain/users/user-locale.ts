import { executeOwned } from '../../db/owned-sql.ts';
import { DEFAULT_LOCALE } from '../locales.ts';
import type { SignInTarget } from '../sign-in/sign-in.ts';
import type { SignInUser } from './sign-in-user.ts';

/**
 * Keeps the language of the hosted pages a user signs in on (the target's page language) as the language of their
 * mails. Written only when it changes (null is English), so that most sign-ins cost no statement. Not part of the
 * API's user and not an edit of the user: `updated_at` and the REST read cache stay as they are.
 */
export async function rememberLocale(target: SignInTarget, user: Pick<SignInUser, 'id' | 'locale'>): Promise<void> {
  const { locale } = target.look;
  if ((user.locale ?? DEFAULT_LOCALE) === locale) return;
  await executeOwned(target.applicationScope.em.getConnection(), target.application.id, 'update app_user set locale = ? where @owner and id = ?', [locale, user.id]);
}
