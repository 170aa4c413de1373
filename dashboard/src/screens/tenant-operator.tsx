import { useCallback, type JSX } from 'react';
import { ApiError } from '../api.ts';
import { ErrorMessage } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import { useMayDo } from '../hooks/use-may-do.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { getTenantTenancyConfig, TENANT_CONFIGURATION_READS, type ManagedApplication, type ManagedTenant, type NamedTenant, type TenancyConfig } from '../operations.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import { routeHash, type ApplicationsRoute } from '../route.ts';
import { TenantAuditLog } from './audit-log.tsx';
import { TenantAuthenticationScreen } from './authentication.tsx';
import { TenantBrandingScreen } from './branding.tsx';
import { TenantDomainsScreen } from './domains.tsx';
import { TenantEmailScreen } from './email.tsx';
import { TenantSessions } from './sessions.tsx';
import { TenantUsers } from './users.tsx';

/** One of a tenant's screens for such an operator, in the tenant's scope (`#/{appId}/{tab}/{tenantId}`). */
interface TenantScreenEntry {
  readonly tab: string;
  readonly label: string;
  /** What the screen reads, without which it is not offered. */
  readonly reads: readonly string[];
  /** The switches under which the tenant has the screen's settings of its own; absent: always. */
  readonly offeredWhen?: (config: TenancyConfig) => boolean;
  /** `may`: what the operator holds in the tenant, which decides the actions offered. */
  readonly Screen: (props: { appId: string; tenant: NamedTenant; may: MayDo }) => JSX.Element;
}

// A settings screen reads the tenant's configuration, which takes the read permission of each of its sections.
const TENANT_SCREENS: readonly TenantScreenEntry[] = [
  { tab: 'users', label: 'Users', reads: ['users:read'], Screen: TenantUsers },
  // Its rows are named through the members' list.
  { tab: 'sessions', label: 'Sessions', reads: ['sessions:read', 'users:read'], Screen: TenantSessions },
  { tab: 'branding', label: 'Branding', reads: TENANT_CONFIGURATION_READS, Screen: TenantBrandingScreen },
  { tab: 'email', label: 'E-mail', reads: TENANT_CONFIGURATION_READS, Screen: TenantEmailScreen },
  { tab: 'authentication', label: 'Authentication', reads: TENANT_CONFIGURATION_READS, Screen: TenantAuthenticationScreen },
  // A tenant has custom domains of its own only while authentication is isolated (spec, tenancy rule 7).
  { tab: 'domains', label: 'Domains', reads: TENANT_CONFIGURATION_READS, offeredWhen: (config) => config.authIsolation === 'isolated', Screen: TenantDomainsScreen },
  // The tenant's scope searches its records alone (schema: auditLogs).
  { tab: 'audit-log', label: 'Audit log', reads: ['audit_logs:read'], Screen: TenantAuditLog },
];

/** The tenant's screens the operator's permissions there open, less those its switches leave to the application. */
async function offeredScreens(appId: string, tenantId: string, held: readonly string[]): Promise<readonly TenantScreenEntry[]> {
  const readable = TENANT_SCREENS.filter((screen) => screen.reads.every((permission) => held.includes(permission)));
  if (readable.every((screen) => screen.offeredWhen === undefined)) return readable;
  const config = await getTenantTenancyConfig(appId, tenantId).catch((error: unknown) => {
    // Permissions not known and the switches refused: those screens could not open either.
    if (error instanceof ApiError && error.code === 'forbidden') return null;
    throw error;
  });
  return readable.filter((screen) => screen.offeredWhen === undefined || (config !== null && screen.offeredWhen(config)));
}

function useOfferedScreens(appId: string, tenant: ManagedTenant) {
  const { id: tenantId, permissions } = tenant;
  const offered = useAsync(useCallback(() => offeredScreens(appId, tenantId, permissions), [appId, tenantId, permissions]));
  useReadOnReturn(offered);
  return offered;
}

interface TenantLinksProps {
  application: ManagedApplication;
  tenant: ManagedTenant;
  /** The screen shown, on one of the tenant's screens; absent on the landing. */
  current?: string;
}

/** Links to a tenant's screens the operator may read. */
function TenantLinks({ application, tenant, current }: TenantLinksProps) {
  const offered = useOfferedScreens(application.id, tenant);
  if (offered.status === 'loading') return null;
  if (offered.status === 'failed') return <ErrorMessage message={offered.message} />;
  if (offered.data.length === 0) return <p>{`You may read none of ${tenant.name}'s screens here.`}</p>;
  return (
    <ul className={current === undefined ? 'tenant-screens' : 'tabs'} aria-label={current === undefined ? `Screens of ${tenant.name}` : undefined}>
      {offered.data.map((screen) => (
        <li key={screen.tab}>
          <a href={routeHash({ appId: application.id, tab: screen.tab, tenantId: tenant.id })} aria-current={screen.tab === current ? 'page' : undefined}>{`${screen.label} of ${tenant.name}`}</a>
        </li>
      ))}
    </ul>
  );
}

/** The tenants in which the operator holds a role, each leading to its screens, and where the rest is managed. */
function YourTenants({ application, tenants, unknownTenant }: { application: ManagedApplication; tenants: readonly ManagedTenant[]; unknownTenant: boolean }) {
  useDocumentTitle('Your tenants', application.name);
  return (
    <section aria-labelledby="tenant-operator-heading">
      <h2 id="tenant-operator-heading">Your tenants</h2>
      {unknownTenant && <ErrorMessage message="The address names a tenant in which you hold no role, or one that no longer exists." />}
      <ul aria-label="Tenants in which you hold a role">
        {tenants.map((tenant) => (
          <li key={tenant.id}>
            {tenant.name} <code>{tenant.id}</code>
            <TenantLinks application={application} tenant={tenant} />
          </li>
        ))}
      </ul>
      <p>
        The dashboard manages an application as a whole, which takes a role held application-wide; in your tenants it
        manages their users, invitations and sessions, their branding, e-mail and authentication where the application lets
        each tenant have its own, their custom domains while authentication is isolated, and their audit log, as your permissions there allow. The rest of your tenants is managed through the
        API&apos;s tenant paths, <code>{`/applications/${application.id}/tenants/{tenantId}/…`}</code>.
      </p>
    </section>
  );
}

function TenantPage({ application, tenant, screen }: { application: ManagedApplication; tenant: ManagedTenant; screen: TenantScreenEntry }) {
  useDocumentTitle(`${screen.label} of ${tenant.name}`, application.name);
  const { Screen } = screen;
  const may = useMayDo(tenant.permissions);
  return (
    <>
      <a className="back" href={routeHash({ appId: application.id })}>Your tenants</a>
      <nav aria-label={`Sections of ${tenant.name}`}>
        <TenantLinks application={application} tenant={tenant} current={screen.tab} />
      </nav>
      <Screen appId={application.id} tenant={tenant} may={may} />
    </>
  );
}

interface TenantOperatorProps {
  readonly application: ManagedApplication;
  /** The tenants in which the operator holds a role, by name, with what they hold there. */
  readonly tenants: readonly ManagedTenant[];
  /** `#/{appId}/{screen}/{tenantId}` opens that screen of that tenant. */
  readonly route: ApplicationsRoute;
  readonly onBack: () => void;
}

/**
 * An application in which the operator holds roles in some tenants only: those tenants, and each one's screens in its
 * scope (the application's tabs would each be refused). A screen the operator may not read is refused by the server.
 */
export function TenantOperator({ application, tenants, route, onBack }: TenantOperatorProps) {
  const screen = TENANT_SCREENS.find((candidate) => candidate.tab === route.tab);
  const tenant = screen === undefined ? undefined : tenants.find((candidate) => candidate.id === route.tenantId?.toLowerCase());
  return (
    <>
      <button type="button" className="link back" onClick={onBack}>All applications</button>
      <h1>{application.name}</h1>
      {screen === undefined || tenant === undefined ? (
        <YourTenants application={application} tenants={tenants} unknownTenant={route.tenantId !== undefined} />
      ) : (
        <TenantPage key={`${screen.tab}:${tenant.id}`} application={application} tenant={tenant} screen={screen} />
      )}
    </>
  );
}
