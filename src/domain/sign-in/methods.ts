import type { AuthProviderType } from '../../db/entities/auth-provider.entity.ts';
import { invalid } from '../../errors.ts';

/**
 * The auth provider types the service serves: the sign-in methods the hosted pages can sign someone in with, one a
 * line (each method adds itself here when its pages land), and the types that configure no page at all but how M2M
 * credentials (`m2m`) and API keys (`api_keys`) authenticate, which the service applies. Any other type (`passkey`
 * still) is refused when configured (assertServedType) and, where stored before, not counted (isServedType): the
 * hosted pages then offer exactly the methods that work, never a page that refuses every sign-in.
 */
const SERVED_TYPES: ReadonlySet<AuthProviderType> = new Set<AuthProviderType>([
  'password',
  'magic_link',
  'oauth',
  'saml',
  'm2m',
  'api_keys',
]);

export const isServedType = (type: string): boolean => SERVED_TYPES.has(type as AuthProviderType);

/** 422 on `type` for a provider type the service cannot sign anyone in with yet. */
export function assertServedType(type: AuthProviderType): void {
  if (isServedType(type)) return;
  throw invalid('type', `${type} providers are not served yet: the hosted sign-in cannot sign anyone in with them (served: ${[...SERVED_TYPES].join(', ')})`);
}
