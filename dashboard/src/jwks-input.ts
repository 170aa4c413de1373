import { errorMessage } from './error-message.ts';

/** The JWKS the operator pasted, parsed to send: the server judges its keys, this only reads the JSON. */
export function parseJwks(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`The JWKS is not valid JSON: ${errorMessage(error)}`, { cause: error });
  }
}
