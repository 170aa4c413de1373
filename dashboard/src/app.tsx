import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { afterSignOut, completeSignIn, isAuthorizationResponse, redirectUri, signIn } from './auth.ts';
import { Loading } from './components/status.tsx';
import { readConfig } from './config.ts';
import { errorMessage } from './error-message.ts';
import { SignIn } from './screens/sign-in.tsx';
import { claimSession, clearSession, getSession, saveSession, sessionEndedBecause, subscribeSession } from './session.ts';

// A chunk of its own: the sign-in page, which most visits start at, loads without it.
const Console = lazy(async () => ({ default: (await import('./screens/console.tsx')).Console }));

/**
 * Signed out, coming back from the issuer (its sign-in or its sign-out), or signed in: the page for each, and signed
 * in, the one the URL names.
 */
export function App() {
  const [config, setConfig] = useState(readConfig);
  const session = useSyncExternalStore(subscribeSession, getSession);
  const [completing, setCompleting] = useState(() => isAuthorizationResponse(new URL(location.href)));
  const [failure, setFailure] = useState<string | null>(null);
  const [signedOutTo] = useState(() => afterSignOut(new URL(location.href), config));
  // The id of the session this tab holds: a duplicated tab's copy is another tab's, and it signs in for its own.
  const [claimed, setClaimed] = useState<string | null>(null);

  useEffect(() => {
    if (session === null || session.id === claimed) return;
    void claimSession(session).then((mine) => {
      if (mine) return setClaimed(session.id);
      clearSession();
      return signIn(config);
    });
  }, [session, claimed, config]);

  useEffect(() => {
    if (signedOutTo !== null) location.replace(signedOutTo);
  }, [signedOutTo]);

  useEffect(() => {
    if (!completing) return;
    void completeSignIn(config)
      .then(
        ({ session, returnTo }) => {
          // The callback's page is the oldest organization's; back at `returnTo`, it is the one signed in to.
          setConfig((page) => ({ ...page, clientId: session.clientId, organizationId: session.organizationId }));
          saveSession(session);
          return returnTo;
        },
        (error: unknown) => {
          setFailure(errorMessage(error));
          return '';
        },
      )
      .then((returnTo) => {
        // The code is spent: a reload or a bookmark must not offer it again. The operator is back where they were.
        history.replaceState(null, '', redirectUri() + returnTo);
        setCompleting(false);
      });
  }, [completing, config]);

  if (signedOutTo !== null) {
    return (
      <main>
        <Loading>Signing out…</Loading>
      </main>
    );
  }
  if (completing) {
    return (
      <main>
        <Loading>Signing in…</Loading>
      </main>
    );
  }
  if (session === null) return <SignIn config={config} failure={failure} ended={sessionEndedBecause()} />;
  const loading = (
    <main>
      <Loading>Loading…</Loading>
    </main>
  );
  if (session.id !== claimed) return loading;
  return (
    <Suspense fallback={loading}>
      <Console config={config} session={session} />
    </Suspense>
  );
}
