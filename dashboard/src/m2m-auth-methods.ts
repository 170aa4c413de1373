import type { M2MAuthMethod } from './operations-m2m-credentials.ts';

/** How each method reads in the dashboard, in the order offered (the API's default first). */
export const AUTH_METHOD_LABEL: Record<M2MAuthMethod, string> = {
  client_secret_basic: 'Client secret, HTTP Basic',
  client_secret_post: 'Client secret, in the form body',
  private_key_jwt: 'Private key JWT',
};

export const AUTH_METHODS = Object.keys(AUTH_METHOD_LABEL) as M2MAuthMethod[];

export const usesSecret = (method: M2MAuthMethod): boolean => method !== 'private_key_jwt';
