import { useState, type FormEvent } from 'react';
import { Refusal } from '../components/status.tsx';
import { Subsection } from '../components/subsection.tsx';
import { TextField } from '../components/text-field.tsx';
import { useSubmission } from '../hooks/use-submission.ts';
import { deleteApplication, type ApplicationSettings } from '../operations-applications.ts';

interface DeleteApplicationProps {
  application: ApplicationSettings;
  onDeleted: () => void;
}

/** The deletion, confirmed by typing the application's name as the organization's deactivation is: nothing brings it back. */
export function DeleteApplication({ application, onDeleted }: DeleteApplicationProps) {
  const [typedName, setTypedName] = useState('');
  const submission = useSubmission<void>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submission.run(async () => {
      await deleteApplication(application.id);
      onDeleted();
    });
  };

  return (
    <Subsection title="Deletion">
      <p>
        Deleting {application.name} (application <code>{application.id}</code>) deletes everything it holds at once: its
        {application.multiTenant ? ' tenants,' : ''} users, roles, API keys, clients and settings. Nobody can sign in to it
        any more, and it cannot be undone.
      </p>
      <form className="inline-form" noValidate onSubmit={submit}>
        <TextField label={`Type “${application.name}” to confirm`} value={typedName} onChange={setTypedName} />
        <button type="submit" className="danger" disabled={submission.busy || typedName !== application.name}>Delete application</button>
      </form>
      <Refusal outcome={submission.outcome} />
    </Subsection>
  );
}
