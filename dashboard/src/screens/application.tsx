import type { JSX } from 'react';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import { NoRole } from '../components/no-role.tsx';
import { useMayDo } from '../hooks/use-may-do.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import { TENANT_CONFIGURATION_READS, type ManagedApplication, type OperatorApplication } from '../operations.ts';
import { routeHash, tabSlug } from '../route.ts';
import { Analytics } from './analytics.tsx';
import { ApiKeys } from './api-keys.tsx';
import { ApiResources } from './api-resources.tsx';
import { ApplicationSettingsScreen } from './application-settings.tsx';
import { AuditLog } from './audit-log.tsx';
import { Authentication } from './authentication.tsx';
import { Branding } from './branding.tsx';
import { Domains } from './domains.tsx';
import { Email } from './email.tsx';
import { Invitations } from './invitations.tsx';
import { M2MCredentials } from './m2m-credentials.tsx';
import { OAuthClients } from './oauth-clients.tsx';
import { Operators } from './operators.tsx';
import { Roles } from './roles.tsx';
import { Sessions } from './sessions.tsx';
import { Tenants } from './tenants.tsx';
import { Users } from './users.tsx';

// In the order of the tabs.
const SCREENS = {
  Tenants,
  Branding,
  'E-mail': Email,
  Authentication,
  Domains,
  Users,
  Invitations,
  Sessions,
  Roles,
  Operators,
  'API keys': ApiKeys,
  'OAuth clients': OAuthClients,
  'API resources': ApiResources,
  'M2M credentials': M2MCredentials,
  'Audit log': AuditLog,
  Analytics,
  Settings: ApplicationSettingsScreen,
} satisfies Record<string, (props: ApplicationScreenProps) => JSX.Element>;
type Tab = keyof typeof SCREENS;
const TABS = Object.keys(SCREENS) as Tab[];

// Without any of these, a tab's first read is refused.
const READS: Readonly<Record<Tab, readonly string[]>> = {
  // Each tenant's badges are its configuration's sources.
  Tenants: [...TENANT_CONFIGURATION_READS, 'applications:read'],
  Branding: ['branding:read', 'applications:read'],
  'E-mail': ['email:read', 'applications:read'],
  Authentication: ['auth_providers:read', 'policies:read', 'applications:read'],
  Domains: ['domains:read', 'applications:read'],
  Users: ['users:read', 'applications:read'],
  Invitations: ['users:read'],
  Sessions: ['sessions:read', 'users:read'],
  // These read whether the application has tenants (`application`), to name them: by id, and none offered, without tenants:read.
  Roles: ['roles:read', 'applications:read'],
  Operators: ['role_assignments:read', 'roles:read', 'applications:read'],
  'API keys': ['api_keys:read', 'applications:read'],
  'OAuth clients': ['oauth_clients:read', 'applications:read'],
  'API resources': ['api_resources:read'],
  'M2M credentials': ['m2m_credentials:read', 'applications:read'],
  // Its Tenant filter is offered with the tenants' list (mayPickTenant); a search without one is the application's.
  'Audit log': ['audit_logs:read'],
  Analytics: ['analytics:read'],
  Settings: ['applications:read'],
};
/** A single-tenant application has no tenants, so none to invite to. */
const TENANT_TABS: readonly Tab[] = ['Tenants', 'Invitations'];

/** What a tab is given: most use the id alone. */
export interface ApplicationScreenProps {
  readonly appId: string;
  /** As `managedApplications` told it, so that a tab need not read the application for it. */
  readonly multiTenant: boolean;
  readonly may: MayDo;
  /** In the organization's console, where operators' accounts are kept. */
  readonly mayInConsole: MayDo;
  /** The application as saved (renamed), or null once deleted. */
  readonly onChanged: (saved: ManagedApplication | null) => void;
}

interface ApplicationProps {
  readonly application: OperatorApplication;
  readonly consolePermissions: readonly string[];
  /** The tab the URL names (its slug); the first offered when it names none, or one not offered. */
  readonly tab: string | undefined;
  readonly onBack: () => void;
  readonly onChanged: ApplicationScreenProps['onChanged'];
}

/** One managed application and the tabs the operator's permissions there open; none, a page saying so. */
export function Application({ application, consolePermissions, tab: slug, onBack, onChanged }: ApplicationProps) {
  const may = useMayDo(application.permissions);
  const mayInConsole = useMayDo(consolePermissions);
  const tabs = TABS.filter((name) => (application.multiTenant || !TENANT_TABS.includes(name)) && READS[name].every(may));
  const first: Tab = application.multiTenant ? 'Tenants' : 'Users';
  const tab = tabs.find((name) => tabSlug(name) === slug) ?? (tabs.includes(first) ? first : tabs[0]);
  useDocumentTitle(tab ?? 'No role', application.name);
  if (tab === undefined) {
    return (
      <>
        <button type="button" className="link back" onClick={onBack}>All applications</button>
        <h1>{application.name}</h1>
        <NoRole applicationName={application.name} />
      </>
    );
  }
  const Screen = SCREENS[tab];
  return (
    <>
      <button type="button" className="link back" onClick={onBack}>All applications</button>
      <h1>{application.name}</h1>
      <nav aria-label="Application sections">
        <ul className="tabs">
          {tabs.map((name) => (
            <li key={name}>
              <a href={routeHash({ appId: application.id, tab: tabSlug(name) })} aria-current={tab === name ? 'page' : undefined}>{name}</a>
            </li>
          ))}
        </ul>
      </nav>
      <Screen appId={application.id} multiTenant={application.multiTenant} may={may} mayInConsole={mayInConsole} onChanged={onChanged} />
    </>
  );
}
