import { useState } from 'react';
import { signIn } from '../auth.ts';
import { ErrorMessage } from '../components/status.tsx';
import type { DashboardConfig } from '../config.ts';
import { errorMessage } from '../error-message.ts';

/** The signed-out page: the Sign in button, and why the last sign-in failed if it did. */
export function SignIn({ config, failure }: { config: DashboardConfig; failure: string | null }) {
  const [startFailure, setStartFailure] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const start = () => {
    setStarting(true);
    signIn(config).catch((error: unknown) => {
      setStartFailure(`Sign-in could not start: ${errorMessage(error)}`);
      setStarting(false);
    });
  };
  const shown = startFailure ?? failure;
  return (
    <main className="sign-in">
      <h1>Gatehouse dashboard</h1>
      <p>Sign in to manage your applications, their tenants and their users.</p>
      {shown !== null && <ErrorMessage message={shown} />}
      <button type="button" className="primary" onClick={start} disabled={starting}>Sign in</button>
    </main>
  );
}
