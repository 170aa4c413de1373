import { startTestApp } from '../test/support/app.ts';
import { authorize, codeAuthorizationUrl, createTestClient, TestBrowser } from '../test/support/oauth.ts';
import type { BenchRequest } from './client-credentials.ts';
import { prepareSignIns, type SignInService } from './sign-ins.ts';

/** POST /sessions/validate with the service's API key, of the access token of a hosted password sign-in. */
export async function sessionValidateRequest(service: SignInService): Promise<BenchRequest> {
  const { tokens } = await prepareSignIns(service, 1, 1, 'sessions');
  const { access_token: token } = await tokens(0);
  const headers = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
  const request = { path: '/api/v1/sessions/validate', method: 'POST' as const, headers, body: JSON.stringify({ token }) };
  const probe = await fetch(`${service.baseUrl}${request.path}`, request);
  const answer = (await probe.json()) as { valid?: boolean };
  if (probe.status !== 200 || answer.valid !== true) throw new Error(`validating a session: ${probe.status} ${JSON.stringify(answer)}`);
  return request;
}

export interface SuspendStatementCounts {
  /** The user's sessions (each with its grant and tokens) → the statements of their suspension. */
  readonly bySessions: readonly { readonly sessions: number; readonly statements: number }[];
}

/**
 * Counts the SQL statements of `POST /users/{userId}/suspend` (authentication included) for users with `sizes`
 * sessions each (a sign-in through the OP per session, in a browser of its own, with its grant and tokens), in process
 * through the service's `onQuery` hook: the suspension's are constant in their number.
 */
export async function countSuspendStatements(sizes: readonly number[]): Promise<SuspendStatementCounts> {
  const app = await startTestApp({}, { reachablePublicUrl: true });
  try {
    const redirect = 'https://bench.example/callback';
    const client = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [redirect] });
    const issuer = app.gatehouse.services.config.publicUrl;
    const bySessions = [];
    for (const sessions of sizes) {
      const created = await app.http.post('/users', { email: `suspend-${sessions}@bench.example` });
      if (created.status !== 201) throw new Error(`creating a user: ${created.status} ${JSON.stringify(created.body)}`);
      const userId = created.body.id as string;
      for (let i = 0; i < sessions; i += 1) {
        const outcome = await authorize(app, codeAuthorizationUrl(issuer, client.clientId, redirect), { userId, tenantId: null }, new TestBrowser());
        if (outcome.kind !== 'redirect') throw new Error(`signing in: ${outcome.status}`);
      }
      const before = app.queries.length;
      const suspended = await app.http.post(`/users/${userId}/suspend`);
      if (suspended.status !== 200) throw new Error(`suspending: ${suspended.status} ${JSON.stringify(suspended.body)}`);
      bySessions.push({ sessions, statements: app.queries.length - before });
    }
    return { bySessions };
  } finally {
    await app.close();
  }
}
