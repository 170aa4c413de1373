import { errorMessage } from './error-message.ts';

/** The JWKS the operator pasted, parsed to send: the server judges its keys, this only reads the JSON. */
export function parseJwks(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`The JWKS is not valid JSON: ${errorMessage(error)}`, { cause: error });
  }
}

// A private JWK's members (RFC 7518, section 6: EC, OKP and RSA private parts, an oct key's `k`).
const PRIVATE_MEMBER = /"(d|p|q|dp|dq|qi|oth|k)"\s*:/;

/** The JWKS as kept when a session ends: a private key pasted by mistake is a secret, so the text is not kept at all. */
export const withoutPrivateKeys = (text: string): string => (PRIVATE_MEMBER.test(text) ? '' : text);
