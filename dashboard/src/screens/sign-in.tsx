import { useState } from 'react';
import { signIn } from '../auth.ts';
import { ErrorMessage } from '../components/status.tsx';
import type { DashboardConfig } from '../config.ts';
import { errorMessage } from '../error-message.ts';

/** A button signing in to the page's organization, and why the sign-in could not start if it could not. */
export function SignInButton({ config, label }: { config: DashboardConfig; label: string }) {
  const [failure, setFailure] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const start = () => {
    setStarting(true);
    signIn(config).catch((error: unknown) => {
      setFailure(`Sign-in could not start: ${errorMessage(error)}`);
      setStarting(false);
    });
  };
  return (
    <>
      {failure !== null && <ErrorMessage message={failure} />}
      <button type="button" className="primary" onClick={start} disabled={starting}>{label}</button>
    </>
  );
}

interface SignInProps {
  config: DashboardConfig;
  /** Why the last sign-in failed, if it did. */
  failure: string | null;
  /** Why the tab's session ended, when the operator did not sign out. */
  ended: string | null;
}

/** The signed-out page: the Sign in button, why the session ended or the last sign-in failed. */
export function SignIn({ config, failure, ended }: SignInProps) {
  return (
    <main className="sign-in">
      <h1>Gatehouse dashboard</h1>
      {ended !== null && <p role="status" className="session-ended">Your session ended: {ended}</p>}
      <p>Sign in to manage your applications, their tenants and their users.</p>
      {failure !== null && <ErrorMessage message={failure} />}
      <SignInButton config={config} label="Sign in" />
    </main>
  );
}
