import type { DashboardConfig } from '../config.ts';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import type { Session } from '../session.ts';
import { SignInButton } from './sign-in.tsx';

interface OtherOrganizationProps {
  config: DashboardConfig;
  session: Session;
  /** The name of the organization signed in to, once read. */
  signedInTo: string | null;
}

/** Nothing of either organization is shown, so no change lands in the one the address does not name. */
export function OtherOrganization({ config, session, signedInTo }: OtherOrganizationProps) {
  useDocumentTitle('Another organization');
  const own = signedInTo ?? 'your organization';
  return (
    <section className="other-organization" aria-labelledby="other-organization-heading">
      <h1 id="other-organization-heading">Another organization’s dashboard</h1>
      <p>
        This address is the dashboard of organization <code>{config.organizationId}</code>, but you are signed in to {own} (
        <code>{session.organizationId}</code>) as {session.email}. Sign in to this organization to manage it, or go back to {own}’s dashboard.
      </p>
      <p className="actions">
        <SignInButton config={config} label="Sign in to this organization" />
        <a href={`${location.pathname}?organization=${session.organizationId}${location.hash}`}>Back to {own}’s dashboard</a>
      </p>
    </section>
  );
}
