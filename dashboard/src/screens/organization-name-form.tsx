import type { FormEvent } from 'react';
import { Outcome } from '../components/status.tsx';
import { DraftNotes } from '../components/draft-notes.tsx';
import { TextField } from '../components/text-field.tsx';
import { useDraft } from '../hooks/use-draft.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { renameOrganization, type Organization } from '../operations-organization.ts';

interface OrganizationNameFormProps {
  organization: Organization;
  onSaved: (organization: Organization) => void;
}

/** The organization's display name. */
export function OrganizationNameForm({ organization, onSaved }: OrganizationNameFormProps) {
  const [name, setName, sync] = useDraft(organization.name, { keep: { name: 'organization-name' } });
  const submission = useSubmission<string>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submission.run(async () => {
      const saved = await renameOrganization(organization.id, name);
      sync.saved();
      onSaved(saved);
      return 'Name saved.';
    });
  };

  return (
    <section aria-labelledby="organization-name-heading">
      <h2 id="organization-name-heading">Name</h2>
      <DraftNotes sync={sync} what="name" />
      <form className="inline-form" noValidate onSubmit={submit}>
        <RefusedField value={submission.refusal}>
          <TextField label="Organization name" value={name} onChange={setName} field="name" />
        </RefusedField>
        <button type="submit" className="primary" disabled={submission.busy}>Save name</button>
      </form>
      <Outcome outcome={submission.outcome} />
    </section>
  );
}
