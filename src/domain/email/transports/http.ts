import { DeliveryError } from './transport.ts';

/** A 4xx the provider says is worth trying again (its throttling, answered with a 400), by its headers or its answer. */
export type Transient4xx = (response: Response, answer: string) => boolean;

/**
 * Any 2xx is sent, whatever its body: sending again would send the mail twice. A 4xx is permanent (the request or
 * credentials stay wrong), except 408, 429 and what `transient` names, retried as 5xx and timeouts are.
 */
export async function postJson(
  provider: string,
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  transient: Transient4xx = () => false,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body, signal });
  } catch (error) {
    throw new DeliveryError(`${provider}: `, false, ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message);
  }
  if (response.ok) {
    // Not waited for: the mail is sent once the status says so.
    void response.body?.cancel().catch(() => undefined);
    return;
  }
  // Whole: it is bounded once its secrets are scrubbed (deliver.ts), else a key cut in two here would leave its start.
  const text = await response.text().catch(() => '');
  const retried = response.status >= 500 || response.status === 408 || response.status === 429 || transient(response, text);
  throw new DeliveryError(`${provider}: HTTP ${response.status}`, !retried, text === '' ? '' : ` ${text}`);
}
