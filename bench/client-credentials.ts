import type { SignInService } from './sign-ins.ts';

/** A request as autocannon and fetch both take it. */
export interface BenchRequest {
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
}

/** An M2M credential made through the management API, and the token request that spends it (client_secret_basic). */
export async function clientCredentialsRequest(service: SignInService): Promise<BenchRequest> {
  const created = await fetch(`${service.baseUrl}/api/v1/m2m-credentials`, {
    method: 'POST',
    headers: { 'x-api-key': service.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench worker', permissions: ['users:read'] }),
  });
  if (created.status !== 201) throw new Error(`creating M2M credentials: ${created.status} ${await created.text()}`);
  const { clientId, clientSecret } = (await created.json()) as { clientId: string; clientSecret: string };
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
  return {
    path: '/oauth2/token',
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  };
}
