import { useCallback, useId, useState } from 'react';
import { ErrorMessage, Outcome } from '../components/status.tsx';
import { Timestamp } from '../components/timestamp.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useConfirmedAction } from '../hooks/use-confirmed-action.ts';
import { useFocusOnOpen } from '../hooks/use-focus-on-open.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { scopeIn, type NamedTenant, type SettingsScope, type TenancyConfig, type User } from '../operations.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import { changeUser, countUserSessions, deleteUser, revokeUserSessions, type UserChange } from '../operations-users.ts';
import { STATUS_LABEL } from '../user-status.ts';
import { UserProfileForm } from './user-profile-form.tsx';
import { UserTenants } from './user-tenants.tsx';
import { UserUpstreamLinks } from './user-upstream-links.tsx';

/** The user's live sessions, as many as one page of them holds. */
function LiveSessions({ scope: { appId, tenantId }, userId }: { scope: SettingsScope; userId: string }) {
  const sessions = useAsync(useCallback(() => countUserSessions({ appId, tenantId }, userId), [appId, tenantId, userId]));
  useReadOnReturn(sessions);
  if (sessions.status === 'loading') return <>…</>;
  if (sessions.status === 'failed') return <ErrorMessage message={sessions.message} />;
  return <>{sessions.data.more ? `${sessions.data.count} or more` : String(sessions.data.count)}</>;
}

interface UserDetailsProps {
  appId: string;
  /** Acting in this tenant's scope (Remove from it rather than Delete); null: the application's. */
  tenant: NamedTenant | null;
  may: MayDo;
  user: User;
  /** How the panel names the user (with their tenant where pools are isolated). */
  label: string;
  /** The tenancy switches; null for a single-tenant application. */
  tenancy: TenancyConfig | null;
  /** The user as the server answered an action. */
  onChanged: (user: User) => void;
  onDeleted: (user: User) => void;
  onClose: () => void;
}

/**
 * The panel of one user under the users table: their account (name and address editable), tenants, live sessions and
 * social accounts (each unlinked), and Suspend or Activate, Unlock while locked, Sign out everywhere, Reset MFA and
 * Delete (all but Activate and Unlock once confirmed); in a tenant's scope, Remove from and Sign out of the tenant. The
 * actions the operator's permissions do not allow are not offered.
 */
export function UserDetails({ appId, tenant, may, user, label, tenancy, onChanged, onDeleted, onClose }: UserDetailsProps) {
  const scope = scopeIn(appId, tenant);
  const headingId = useId();
  const focusOnOpen = useFocusOnOpen();
  const action = useSubmission<string>();
  const deletion = useConfirmedAction();
  const busy = action.busy || deletion.busy;

  const change = (kind: UserChange, done: (changed: User) => string) =>
    action.run(async () => {
      const changed = await changeUser(scope, kind, user.id);
      onChanged(changed);
      return done(changed);
    });
  const statusSentence = (changed: User) => `${changed.email} is now ${STATUS_LABEL[changed.status].toLowerCase()}.`;
  const statusChange = (kind: UserChange) => () => change(kind, statusSentence);
  const changeOnceConfirmed = (question: string, kind: UserChange, done: (changed: User) => string) => () => {
    if (window.confirm(question)) change(kind, done);
  };
  const suspend = changeOnceConfirmed(
    `Suspend ${user.email}? They are signed out everywhere: their sessions and tokens end, and the links and codes mailed to them stop working, for good (Activate restores none of them). Their API keys are refused until they are activated.`,
    'suspendUser',
    statusSentence,
  );
  const resetMfa = changeOnceConfirmed(
    `Remove every second factor and recovery code of ${user.email}? Their next sign-in asks for none, or enrols one again where the MFA policy requires it.`,
    'resetUserMfa',
    (changed) => `${changed.email} has no second factor any more.`,
  );
  // In a tenant's scope the API removes a shared pool's user from that tenant alone, and deletes an isolated pool's.
  const question =
    tenant === null
      ? `Delete ${user.email}? Their account, roles, API keys and sessions are removed. This cannot be undone.`
      : `Remove ${user.email} from ${tenant.name}? Where the tenants share their users, they stay a user of their other tenants; where ${tenant.name} has users of its own, their account, roles, API keys and sessions are removed. This cannot be undone.`;
  const remove = () =>
    deletion.run(question, async () => {
      await deleteUser(scope, user.id);
      onDeleted(user);
    });
  const writable = may('users:write');
  // Counts sign-outs, so that the live sessions are read again after each.
  const [signOuts, setSignOuts] = useState(0);
  const where = tenant === null ? 'everywhere' : `of ${tenant.name}`;
  // Sessions apart, an app kept signed in (offline access) holds a grant no list shows: this ends it too.
  const signOut = () => {
    const question =
      tenant === null
        ? `Sign ${user.email} out everywhere? Each of their sessions ends, with the sign-ins apps keep (offline access): every app asks them to sign in again.`
        : `Sign ${user.email} out of ${tenant.name}? Each of their sign-ins to ${tenant.name} ends, with those apps keep (offline access): its apps ask them to sign in again.`;
    if (!window.confirm(question)) return;
    action.run(async () => {
      await revokeUserSessions(scope, user.id);
      setSignOuts((count) => count + 1);
      return `${user.email} is signed out ${where}.`;
    });
  };

  return (
    <section aria-labelledby={headingId} className="panel">
      <h3 id={headingId} ref={focusOnOpen} tabIndex={-1}>{`Details of ${label}`}</h3>
      <dl className="details">
        <div>
          <dt>Status</dt>
          <dd>{STATUS_LABEL[user.status]}</dd>
        </div>
        <div>
          <dt>E-mail verified</dt>
          <dd>{user.emailVerified ? 'Yes' : 'No'}</dd>
        </div>
        {may('sessions:read') && (
          <div>
            <dt>Live sessions</dt>
            {/* Read again after a status change (a suspension ends them) and a sign-out. */}
            <dd><LiveSessions key={`${user.status}:${signOuts}`} scope={scope} userId={user.id} /></dd>
          </div>
        )}
        <div>
          <dt>Social accounts</dt>
          <dd><UserUpstreamLinks scope={scope} userId={user.id} email={user.email} nameProviders={may('auth_providers:read')} unlinkable={writable} /></dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd><Timestamp value={user.createdAt} /></dd>
        </div>
        <div>
          <dt>Last changed</dt>
          <dd><Timestamp value={user.updatedAt} /></dd>
        </div>
      </dl>
      {writable && <UserProfileForm scope={scope} user={user} onChanged={onChanged} />}
      {tenancy !== null && <UserTenants appId={appId} may={may} user={user} isolated={tenancy.authIsolation === 'isolated'} editable={writable} onChanged={onChanged} />}
      <div className="form-actions user-actions">
        {writable &&
          (user.status === 'suspended' ? (
            <button type="button" disabled={busy} onClick={statusChange('activateUser')}>Activate</button>
          ) : (
            <button type="button" disabled={busy} onClick={suspend}>Suspend</button>
          ))}
        {writable && user.status === 'locked' && <button type="button" disabled={busy} onClick={statusChange('unlockUser')}>Unlock</button>}
        {may('sessions:delete') && <button type="button" disabled={busy} onClick={signOut}>{`Sign out ${where}`}</button>}
        {writable && <button type="button" disabled={busy} onClick={resetMfa}>Reset MFA</button>}
        {may('users:delete') && <button type="button" disabled={busy} onClick={remove}>{tenant === null ? 'Delete' : `Remove from ${tenant.name}`}</button>}
        <button type="button" onClick={onClose}>Close</button>
      </div>
      <Outcome outcome={action.outcome} />
      {deletion.failure !== null && <ErrorMessage message={deletion.failure} />}
    </section>
  );
}
