import { useState } from 'react';
import { signOut } from '../auth.ts';
import type { DashboardConfig } from '../config.ts';
import { errorMessage } from '../error-message.ts';
import { leavePage } from '../hooks/use-unsaved-changes.ts';
import { routeHash, useRoute } from '../route.ts';
import type { Session } from '../session.ts';
import { ErrorMessage } from './status.tsx';

interface HeaderProps {
  config: DashboardConfig;
  session: Session;
  /** The organization signed in to, once read (not while it is deactivated). */
  organizationName: string | null;
  /** Whether the Organization page is offered: not to an operator who may not read the organization. */
  organizationPage: boolean;
}

/** The signed-in banner: the organization signed in to and its page, who is signed in, and the way out. */
export function Header({ config, session, organizationName, organizationPage }: HeaderProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const onOrganization = useRoute().page === 'organization';
  const leave = () => {
    leavePage(() => signOut(config, session)).catch((error: unknown) => setFailure(`Sign-out failed: ${errorMessage(error)}`));
  };
  return (
    <header className="banner">
      <span className="brand">Gatehouse</span>
      {organizationName !== null && <span className="organization-name">{organizationName}</span>}
      {organizationPage && <a href={routeHash({ page: 'organization' })} aria-current={onOrganization ? 'page' : undefined}>Organization</a>}
      <span className="who">{session.email}</span>
      <button type="button" onClick={leave}>Sign out</button>
      {failure !== null && <ErrorMessage message={failure} />}
    </header>
  );
}
