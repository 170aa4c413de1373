import { useState } from 'react';
import { signOut } from '../auth.ts';
import type { DashboardConfig } from '../config.ts';
import { errorMessage } from '../error-message.ts';
import type { Session } from '../session.ts';
import { ErrorMessage } from './status.tsx';

/** The signed-in banner: who is signed in, and the way out. */
export function Header({ config, session }: { config: DashboardConfig; session: Session }) {
  const [failure, setFailure] = useState<string | null>(null);
  const leave = () => {
    signOut(config, session).catch((error: unknown) => setFailure(`Sign-out failed: ${errorMessage(error)}`));
  };
  return (
    <header className="banner">
      <span className="brand">Gatehouse</span>
      <span className="who">{session.email}</span>
      <button type="button" onClick={leave}>Sign out</button>
      {failure !== null && <ErrorMessage message={failure} />}
    </header>
  );
}
