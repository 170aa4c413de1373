import { useEffect, useState, useSyncExternalStore } from 'react';
import { afterSignOut, completeSignIn, isAuthorizationResponse, redirectUri } from './auth.ts';
import { Header } from './components/header.tsx';
import { Loading } from './components/status.tsx';
import { readConfig } from './config.ts';
import { errorMessage } from './error-message.ts';
import { useRoute } from './route.ts';
import { Applications } from './screens/applications.tsx';
import { Organization } from './screens/organization.tsx';
import { SignIn } from './screens/sign-in.tsx';
import { getSession, saveSession, subscribeSession } from './session.ts';

/**
 * Signed out, coming back from the issuer (its sign-in or its sign-out), or signed in: the page for each, and signed
 * in, the one the URL names.
 */
export function App() {
  const [config] = useState(readConfig);
  const session = useSyncExternalStore(subscribeSession, getSession);
  const [completing, setCompleting] = useState(() => isAuthorizationResponse(new URL(location.href)));
  const [failure, setFailure] = useState<string | null>(null);
  const route = useRoute();
  const [signedOutTo] = useState(() => afterSignOut(new URL(location.href), config));

  useEffect(() => {
    if (signedOutTo !== null) location.replace(signedOutTo);
  }, [signedOutTo]);

  useEffect(() => {
    if (!completing) return;
    void completeSignIn(config)
      .then(
        ({ session, returnTo }) => {
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
  if (session === null) return <SignIn config={config} failure={failure} />;
  return (
    <>
      <Header config={config} session={session} />
      <main>
        {route.page === 'organization' ? <Organization organizationId={session.organizationId} /> : <Applications route={route} />}
      </main>
    </>
  );
}
