import { useState } from 'react';
import { signOut } from '../auth.ts';
import type { DashboardConfig } from '../config.ts';
import { errorMessage } from '../error-message.ts';
import { routeHash, useRoute } from '../route.ts';
import type { Session } from '../session.ts';
import { ErrorMessage } from './status.tsx';

/** The signed-in banner: the organization's page, who is signed in, and the way out. */
export function Header({ config, session }: { config: DashboardConfig; session: Session }) {
  const [failure, setFailure] = useState<string | null>(null);
  const onOrganization = useRoute().page === 'organization';
  const leave = () => {
    signOut(config, session).catch((error: unknown) => setFailure(`Sign-out failed: ${errorMessage(error)}`));
  };
  return (
    <header className="banner">
      <span className="brand">Gatehouse</span>
      <a href={routeHash({ page: 'organization' })} aria-current={onOrganization ? 'page' : undefined}>Organization</a>
      <span className="who">{session.email}</span>
      <button type="button" onClick={leave}>Sign out</button>
      {failure !== null && <ErrorMessage message={failure} />}
    </header>
  );
}
