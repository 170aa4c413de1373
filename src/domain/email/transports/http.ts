import { DeliveryError } from './transport.ts';

/** The most of a provider's answer kept in `lastError`. */
const ANSWER_LIMIT = 500;

/**
 * POSTs a JSON body to a provider's API: a 2xx is accepted; a 4xx is a permanent refusal (the request or its
 * credentials are wrong and will stay so), except 408 and 429, which are retried as 5xx are; no answer in time, or
 * none at all, is retried too.
 */
export async function postJson(provider: string, url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body, signal });
  } catch (error) {
    const reason = signal.aborted ? 'no answer in time' : ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message;
    throw new DeliveryError(`${provider}: ${reason}`, false);
  }
  const text = await response.text().catch(() => '');
  if (response.ok) return text === '' ? null : (JSON.parse(text) as unknown);
  const transient = response.status >= 500 || response.status === 408 || response.status === 429;
  throw new DeliveryError(`${provider}: HTTP ${response.status} ${text.slice(0, ANSWER_LIMIT)}`.trim(), !transient);
}
