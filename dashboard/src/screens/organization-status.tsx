import { useState, type FormEvent } from 'react';
import { Outcome } from '../components/status.tsx';
import { TextField } from '../components/text-field.tsx';
import { useSubmission } from '../hooks/use-submission.ts';
import { deactivateOrganization, reactivateOrganization, type Organization } from '../operations-organization.ts';

interface OrganizationStatusProps {
  organizationId: string;
  /** Null while it is deactivated and was not read before: reading it is refused then, as all but its reactivation. */
  organization: Organization | null;
  onChanged: (organization: Organization) => void;
}

/**
 * Deactivation, confirmed by typing the organization's name since it stops every application of it at once; while
 * deactivated, the reactivation. One section for both, so the outcome of either stays shown as the state changes.
 */
export function OrganizationStatus({ organizationId, organization, onChanged }: OrganizationStatusProps) {
  const [typedName, setTypedName] = useState('');
  const submission = useSubmission<string>();
  const change = (act: (orgId: string) => Promise<Organization>, done: (organization: Organization) => string) =>
    submission.run(async () => {
      const changed = await act(organizationId);
      setTypedName('');
      onChanged(changed);
      return done(changed);
    });
  const deactivate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    change(deactivateOrganization, ({ name }) => `${name} is deactivated.`);
  };
  const reactivate = () => change(reactivateOrganization, ({ name }) => `${name} is active again.`);

  return (
    <section aria-labelledby="organization-status-heading">
      <h2 id="organization-status-heading">Deactivation</h2>
      {organization === null || organization.status === 'deactivated' ? (
        <>
          <p>
            {organization?.name ?? 'The organization'} is deactivated: its applications sign nobody in and refuse every
            request but its reactivation. Reactivating it makes everything work again as before; nothing was deleted.
          </p>
          <button type="button" className="primary" disabled={submission.busy} onClick={reactivate}>Reactivate organization</button>
        </>
      ) : (
        <>
          <p>
            Deactivating {organization.name} (organization <code>{organizationId}</code>) stops all its applications at once: nobody can sign in to them and every request
            of their API keys, M2M credentials and OAuth clients is refused until it is reactivated. Nothing is deleted.
            Operators can still sign in to this dashboard, but only to reactivate it.
          </p>
          <form className="inline-form" noValidate onSubmit={deactivate}>
            <TextField label={`Type “${organization.name}” to confirm`} value={typedName} onChange={setTypedName} />
            <button type="submit" className="danger" disabled={submission.busy || typedName !== organization.name}>Deactivate organization</button>
          </form>
        </>
      )}
      <Outcome outcome={submission.outcome} />
    </section>
  );
}
