import { useCallback, useId, useMemo, useState, type FormEvent } from 'react';
import { PagedTable } from '../components/paged-table.tsx';
import { SubjectRoles } from '../components/subject-roles.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { TenantsNeeded } from '../components/tenants-needed.tsx';
import { Timestamp } from '../components/timestamp.tsx';
import { UnlistedRow } from '../components/unlisted-row.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useOpenRow } from '../hooks/use-open-row.ts';
import { usePages, type Pages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { UnsavedParts, useUnsavedPart } from '../hooks/use-unsaved-changes.ts';
import { getTenancyConfig, listUsers, scopeIn, type NamedTenant, type TenancyConfig, type TenantSummary, type User } from '../operations.ts';
import { mayPickTenant, type MayDo } from '../operations-own-permissions.ts';
import { listAllTenants } from '../operations-tenant-choices.ts';
import { membershipLabel } from '../role-choices.ts';
import { STATUS_LABEL } from '../user-status.ts';
import { CreateUserForm } from './create-user-form.tsx';
import { TenantInvitations } from './invitations.tsx';
import { UserDetails } from './user-details.tsx';

/** Which of a user's panels is open under the table: their details, or their roles. */
type PanelKind = 'details' | 'roles';

/** "Search": the users whose address starts with what is typed; an empty field shows them all. */
function UserSearchForm({ onSearch }: { onSearch: (emailPrefix: string | null) => void }) {
  const [prefix, setPrefix] = useState('');
  const id = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSearch(prefix.trim() === '' ? null : prefix.trim());
  };
  return (
    <form className="inline-form user-search" role="search" onSubmit={submit}>
      <div>
        <label htmlFor={id}>E-mail starts with</label>
        <input id={id} type="search" value={prefix} onChange={(event) => setPrefix(event.target.value)} />
      </div>
      <button type="submit">Search</button>
    </form>
  );
}

/** Where the users are listed and acted on: the application, or one tenant (its members) in its scope. */
interface UsersPlace {
  appId: string;
  /** Null: the application's users. */
  tenant: NamedTenant | null;
  may: MayDo;
}

interface UserTableProps extends UsersPlace {
  users: Pages<User>;
  tenancy: TenancyConfig | null;
  /** The application's tenants, whose names the Tenant column shows; none in a single-tenant application. */
  tenants: readonly TenantSummary[];
  emailPrefix: string | null;
  onDeleted: (email: string) => void;
}

/** The users (of the search, if any), page by page, and the one panel open: a user's details or roles. */
function UserTable({ appId, tenant, may, users, tenancy, tenants, emailPrefix, onDeleted }: UserTableProps) {
  // Isolated pools may each hold the same address: the tenant tells their users apart.
  const isolated = tenancy?.authIsolation === 'isolated';
  const unsaved = useUnsavedPart();
  const panel = useOpenRow<User, PanelKind>('users', users.items, (user) => user.id, unsaved);
  const chosen = panel.row;
  // What names a user to assistive technology: isolated pools' users of one address differ by their tenant.
  const whose = (user: User) => (isolated ? `${user.email} (${membershipLabel(tenants, user.tenantIds)})` : user.email);
  const rolesOffered = may('role_assignments:read') && may('roles:read');
  const everyone = tenant === null ? 'This application has no users yet.' : `${tenant.name} has no users yet.`;
  const panelButton = (user: User, kind: PanelKind) => ({
    'aria-pressed': panel.isOpen(user, kind),
    onClick: () => panel.open(user, kind),
  });

  return (
    <>
      <PagedTable
        pages={users}
        columns={['E-mail', 'Name', ...(isolated ? ['Tenant'] : []), 'Status', 'Created']}
        actionsHeading="Actions"
        emptyMessage={emailPrefix === null ? everyone : `No user's address starts with ${emailPrefix}.`}
        loadingLabel="Loading users…"
        row={(user) => (
          <tr key={user.id}>
            <th scope="row">{user.email}</th>
            <td>{user.name ?? ''}</td>
            {isolated && <td>{membershipLabel(tenants, user.tenantIds)}</td>}
            <td>{STATUS_LABEL[user.status]}</td>
            <td><Timestamp value={user.createdAt} /></td>
            <td className="actions">
              <button type="button" className="small" {...panelButton(user, 'details')}>
                Details<span className="visually-hidden">{` of ${whose(user)}`}</span>
              </button>
              {rolesOffered && (
                <button type="button" className="small" {...panelButton(user, 'roles')}>
                  Roles<span className="visually-hidden">{` of ${whose(user)}`}</span>
                </button>
              )}
            </td>
          </tr>
        )}
      />
      <UnlistedRow panel={panel} gone={(user) => `${whose(user)} is no longer among the users listed: deleted, or changed elsewhere.`} />
      {chosen !== undefined && panel.view === 'details' && (
        <UnsavedParts value={unsaved.parts}>
          <UserDetails
            key={chosen.id}
            appId={appId}
            tenant={tenant}
            may={may}
            user={chosen}
            label={whose(chosen)}
            tenancy={tenancy}
            onChanged={(user) => users.replace(user.id, user)}
            onDeleted={(deleted) => {
              panel.forget(deleted);
              users.drop(deleted.id);
              onDeleted(deleted.email);
            }}
            onClose={panel.close}
          />
        </UnsavedParts>
      )}
      {chosen !== undefined && panel.view === 'roles' && rolesOffered && (
        <UnsavedParts value={unsaved.parts}>
          <SubjectRoles
            key={chosen.id}
            appId={appId}
            subject={{ type: 'user', id: chosen.id }}
            label={whose(chosen)}
            tenantIds={chosen.tenantIds}
            tenant={tenant ?? undefined}
            may={may}
            onClose={panel.close}
          />
        </UnsavedParts>
      )}
    </>
  );
}

async function loadUsersSetup(appId: string, may: MayDo): Promise<{ tenancy: TenancyConfig | null; tenants: readonly TenantSummary[] }> {
  const tenancy = await getTenancyConfig(appId);
  return { tenancy, tenants: tenancy === null ? [] : await listAllTenants(appId, may) };
}

interface UsersSectionProps extends UsersPlace {
  /** The tenancy switches; null for a single-tenant application, and in a tenant's scope, which reads none. */
  tenancy: TenancyConfig | null;
  tenants: readonly TenantSummary[];
}

/** The users of the place, searched by address, each with a details and (if offered) a roles panel; and Create user. */
function UsersSection({ appId, tenant, may, tenancy, tenants }: UsersSectionProps) {
  const [emailPrefix, setEmailPrefix] = useState<string | null>(null);
  const tenantId = tenant?.id ?? null;
  const users = usePages(useCallback((cursor: string | null) => listUsers({ appId, tenantId }, emailPrefix, cursor), [appId, tenantId, emailPrefix]));
  useReadOnReturn(users);
  const [notice, setNotice] = useState<string | null>(null);
  // Another search closes the panel open: it asks first about the panel's edits.
  const panels = useUnsavedPart();
  // The same search again keeps the panel: the pages shown are read again, the panel's user with them.
  const search = (prefix: string | null) => (prefix === emailPrefix ? users.refresh() : panels.guard(setEmailPrefix)(prefix));

  // Under a search, the new user is shown if the server's search finds them (it compares addresses as sign-in does).
  const created = async (user: User) => {
    const found = emailPrefix === null || (await listUsers(scopeIn(appId, tenant), emailPrefix, null, [user.id])).data.length > 0;
    if (found) users.add(user);
  };
  const heading = tenant === null ? 'Users' : `Users of ${tenant.name}`;
  // Where each tenant has its own users, a user made application-wide needs a tenant chosen: none without tenants:read.
  const tenantNeeded = tenant === null && tenancy?.authIsolation === 'isolated' && !mayPickTenant(may);
  const deleted = (email: string) => (tenant === null ? `${email} is deleted.` : `${email} is no longer a member of ${tenant.name}.`);
  return (
    <>
      <section aria-labelledby="users-heading">
        <h2 id="users-heading">{heading}</h2>
        <UserSearchForm onSearch={search} />
        {notice !== null && <p role="status">{notice}</p>}
        <UnsavedParts value={panels.parts}>
          <UserTable
            key={emailPrefix ?? ''}
            appId={appId}
            tenant={tenant}
            may={may}
            users={users}
            tenancy={tenancy}
            tenants={tenants}
            emailPrefix={emailPrefix}
            onDeleted={(email) => setNotice(deleted(email))}
          />
        </UnsavedParts>
      </section>
      {may('users:write') && tenantNeeded && <TenantsNeeded may={may} action="Creating a user in a tenant's own pool" />}
      {may('users:write') && !tenantNeeded && (
        <CreateUserForm
          may={may}
          appId={appId}
          tenant={tenant}
          tenancy={tenancy}
          onCreated={(user) => {
            setNotice(null);
            void created(user).catch(users.refresh);
          }}
        />
      )}
    </>
  );
}

/** The application's users (Users tab), for an operator holding a role application-wide: the actions `may` allows. */
export function Users({ appId, may }: { appId: string; may: MayDo }) {
  const setup = useAsync(useCallback(() => loadUsersSetup(appId, may), [appId, may]));
  useReadOnReturn(setup);
  if (setup.status === 'loading') return <Loading>Loading the users…</Loading>;
  if (setup.status === 'failed') return <ErrorMessage message={setup.message} />;
  return <UsersSection appId={appId} tenant={null} may={may} tenancy={setup.data.tenancy} tenants={setup.data.tenants} />;
}

/**
 * One tenant's users in its scope, for an operator holding roles in some tenants only: its members and its invitations,
 * and the actions their permissions there allow. Nothing of the application's (its tenancy switches, its other
 * tenants) is read.
 */
export function TenantUsers({ appId, tenant, may }: { appId: string; tenant: NamedTenant; may: MayDo }) {
  const { id, name } = tenant;
  const place = useMemo(() => ({ id, name }), [id, name]);
  return (
    <>
      <UsersSection appId={appId} tenant={place} may={may} tenancy={null} tenants={[]} />
      <TenantInvitations appId={appId} tenant={place} may={may} />
    </>
  );
}
