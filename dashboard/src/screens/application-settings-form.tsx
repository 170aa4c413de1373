import type { FormEvent } from 'react';
import { DraftNotes } from '../components/draft-notes.tsx';
import { Outcome } from '../components/status.tsx';
import { Subsection } from '../components/subsection.tsx';
import { TextField } from '../components/text-field.tsx';
import { useDraft } from '../hooks/use-draft.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { updateApplicationSettings, type ApplicationSettings } from '../operations-applications.ts';

interface ApplicationSettingsFormProps {
  application: ApplicationSettings;
  onSaved: (application: ApplicationSettings) => void;
}

/** The application's display name and how long its audit records are kept, saved together. */
export function ApplicationSettingsForm({ application, onSaved }: ApplicationSettingsFormProps) {
  const [draft, setDraft, sync] = useDraft({ name: application.name, auditRetentionDays: String(application.auditRetentionDays) }, { keep: { name: 'application-settings' } });
  const submission = useSubmission<string>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submission.run(async () => {
      const saved = await updateApplicationSettings(application.id, { name: draft.name.trim(), auditRetentionDays: Number(draft.auditRetentionDays) });
      sync.saved();
      onSaved(saved);
      return 'Settings saved.';
    });
  };

  return (
    <Subsection title="General">
      <DraftNotes sync={sync} what="settings" />
      <form className="stacked-form" noValidate onSubmit={submit}>
        <RefusedField value={submission.refusal}>
          <TextField label="Application name" value={draft.name} onChange={(name) => setDraft({ ...draft, name })} field="name" />
          <TextField
            label="Audit retention (days)"
            type="number"
            value={draft.auditRetentionDays}
            onChange={(auditRetentionDays) => setDraft({ ...draft, auditRetentionDays })}
            hint="1 to 3650: older audit records are deleted each day."
            field="auditRetentionDays"
          />
        </RefusedField>
        <button type="submit" className="primary" disabled={submission.busy}>Save settings</button>
      </form>
      <Outcome outcome={submission.outcome} />
    </Subsection>
  );
}

/** The same settings as values, to an operator who may not change them. */
export function ApplicationSettingsDetails({ application }: { application: ApplicationSettings }) {
  return (
    <Subsection title="General">
      <dl className="details">
        <div>
          <dt>Application name</dt>
          <dd>{application.name}</dd>
        </div>
        <div>
          <dt>Audit retention (days)</dt>
          <dd>{application.auditRetentionDays}</dd>
        </div>
      </dl>
    </Subsection>
  );
}
