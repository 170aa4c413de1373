import { startTestApp } from '../test/support/app.ts';
import { clientCredentialsRequest } from './client-credentials.ts';
import { prepareSignIns } from './sign-ins.ts';

export interface OAuthStatementCounts {
  /** One client-credentials grant, the client's metadata already cached by an earlier one. */
  readonly grant: number;
  /** One hosted password sign-in: the login POST and the redirects until the code (after a first sign-in). */
  readonly signIn: number;
}

/** Counts the SQL statements of the OAuth hot paths, in process through the service's `onQuery` hook. */
export async function countOAuthStatements(): Promise<OAuthStatementCounts> {
  const app = await startTestApp({}, { reachablePublicUrl: true });
  try {
    const service = { baseUrl: app.baseUrl, apiKey: app.root.apiKey };
    const counted = async (run: () => Promise<boolean>) => {
      app.queries.length = 0;
      if (!(await run())) throw new Error('the counted OAuth request failed');
      return app.queries.length;
    };
    const { path, ...request } = await clientCredentialsRequest(service);
    const grant = async () => (await fetch(`${app.baseUrl}${path}`, request)).status === 200;
    await counted(grant);
    const { signIn } = await prepareSignIns(service, 2, 1, 'statements');
    await counted(() => signIn(0));
    return { grant: await counted(grant), signIn: await counted(() => signIn(1)) };
  } finally {
    await app.close();
  }
}
