import { useCallback, type FormEvent } from 'react';
import { DraftNotes } from '../components/draft-notes.tsx';
import { TenantsNeeded } from '../components/tenants-needed.tsx';
import { ErrorMessage, Loading, Outcome } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useDraft } from '../hooks/use-draft.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { listMarks } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import type { User } from '../operations.ts';
import { mayPickTenant, type MayDo } from '../operations-own-permissions.ts';
import { listAllTenants } from '../operations-tenant-choices.ts';
import { updateUser } from '../operations-users.ts';
import { membershipLabel } from '../role-choices.ts';

interface UserTenantsProps {
  appId: string;
  may: MayDo;
  user: User;
  /** Whether each tenant has its own users: a user then belongs to their one tenant for good. */
  isolated: boolean;
  /** Whether the operator may change them (`users:write`): else they are named, not offered as a form. */
  editable: boolean;
  onChanged: (user: User) => void;
}

/**
 * The tenants of a multi-tenant application's user: their one tenant when each tenant has its own users, else a
 * checkbox per tenant, saved as their whole list (`updateUser`'s `tenantIds`), for an operator who may write users.
 */
export function UserTenants({ appId, may, user, isolated, editable, onChanged }: UserTenantsProps) {
  const tenants = useAsync(useCallback(() => listAllTenants(appId, may), [appId, may]));
  useReadOnReturn(tenants);
  // Sorted: the boxes checked, in whatever order, are the same list.
  const [chosen, setChosen, sync] = useDraft<readonly string[]>([...user.tenantIds].sort(), { keep: { name: `user-tenants:${user.id}` } });
  const submission = useSubmission<string>();

  if (tenants.status === 'loading') return <Loading>Loading the tenants…</Loading>;
  if (tenants.status === 'failed') return <ErrorMessage message={tenants.message} />;
  const names = (tenantIds: readonly string[]) => membershipLabel(tenants.data, tenantIds);
  // A user in no tenant was made while the users were shared, and stays in the application's own pool.
  if (isolated) return <p>{user.tenantIds.length === 0 ? "No tenant: one of the application's own users" : `Tenant: ${names(user.tenantIds)}`}</p>;
  // Without the tenants' list there are none to tick: the user's are named (by id), and why shows.
  if (!editable || !mayPickTenant(may)) {
    return (
      <>
        <p>{user.tenantIds.length === 0 ? 'No tenant' : `Tenants: ${names(user.tenantIds)}`}</p>
        {editable && <TenantsNeeded may={may} action="Changing a user's tenants" />}
      </>
    );
  }

  const toggle = (tenantId: string, on: boolean) => setChosen((current) => (on ? [...current, tenantId].sort() : current.filter((id) => id !== tenantId)));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submission.run(async () => {
      const saved = await updateUser({ appId, tenantId: null }, user.id, { tenantIds: chosen });
      sync.saved();
      onChanged(saved);
      return `${saved.email} is a member of ${saved.tenantIds.length === 0 ? 'no tenant' : names(saved.tenantIds)}.`;
    });
  };
  return (
    <form onSubmit={submit}>
      <DraftNotes sync={sync} what="user's list of tenants" />
      <fieldset className="role-choices" {...listMarks(submission.refusal, 'tenantIds')}>
        <legend>Tenants</legend>
        {tenants.data.map((tenant) => (
          <label key={tenant.id}>
            <input type="checkbox" checked={chosen.includes(tenant.id)} onChange={(event) => toggle(tenant.id, event.target.checked)} />
            {tenant.name}
          </label>
        ))}
      </fieldset>
      <p className="hint">Leaving a tenant ends the user's roles, API keys and sessions there.</p>
      <button type="submit" disabled={submission.busy}>Save tenants</button>
      <Outcome outcome={submission.outcome} />
    </form>
  );
}
