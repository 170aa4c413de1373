import type { JSX } from 'react';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import type { ManagedApplication } from '../operations.ts';
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
/** A single-tenant application has no tenants, so none to invite to. */
const TENANT_TABS: readonly Tab[] = ['Tenants', 'Invitations'];

/** What a tab is given: most use the id alone. */
export interface ApplicationScreenProps {
  readonly appId: string;
  /** The application as saved (renamed), or null once deleted. */
  readonly onChanged: (saved: ManagedApplication | null) => void;
}

interface ApplicationProps {
  readonly application: ManagedApplication;
  /** The tab the URL names (its slug); Tenants or Users when it names none, or one this application lacks. */
  readonly tab: string | undefined;
  readonly onBack: () => void;
  readonly onChanged: ApplicationScreenProps['onChanged'];
}

/** One managed application: its name, and its tabs (Tenants and Invitations for a multi-tenant application only), each a link. */
export function Application({ application, tab: slug, onBack, onChanged }: ApplicationProps) {
  const tabs = application.multiTenant ? TABS : TABS.filter((name) => !TENANT_TABS.includes(name));
  const tab = tabs.find((name) => tabSlug(name) === slug) ?? (application.multiTenant ? 'Tenants' : 'Users');
  const Screen = SCREENS[tab];
  useDocumentTitle(tab, application.name);
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
      <Screen appId={application.id} onChanged={onChanged} />
    </>
  );
}
