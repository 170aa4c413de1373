import { executeOwned } from '../../db/owned-sql.ts';
import { DEFAULT_LOCALE } from '../locales.ts';
import type { SignInTarget } from '../sign-in/sign-in.ts';
import type { SignInUser } from './sign-in-user.ts';

/** Written only when it changes (null: English), so most sign-ins cost no statement; no edit: `updated_at` and the read cache stay. */
export async function rememberLocale(target: SignInTarget, user: Pick<SignInUser, 'id' | 'locale'>): Promise<void> {
  const { locale } = target.look;
  if ((user.locale ?? DEFAULT_LOCALE) === locale) return;
  await executeOwned(target.applicationScope.em.getConnection(), target.application.id, 'update app_user set locale = ? where @owner and id = ?', [locale, user.id]);
}
