import { useId, useState, type FormEvent } from 'react';
import { DraftNotes } from '../components/draft-notes.tsx';
import { SecretOnce } from '../components/secret-once.tsx';
import { Refusal } from '../components/status.tsx';
import { TextField } from '../components/text-field.tsx';
import { useDraft } from '../hooks/use-draft.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { createApplication, type CreatedApplication } from '../operations-applications.ts';
import { routeHash } from '../route.ts';

const NEW_APPLICATION = { name: '', multiTenant: false };

const TENANCY = [
  { multiTenant: false, label: 'Single-tenant', hint: 'One set of users and settings, as most apps have.' },
  { multiTenant: true, label: 'Multi-tenant', hint: 'Your customers are tenants, each with its own members and, as you choose, its own branding, e-mail and sign-in.' },
] as const;

/** "Create application": a name and whether it has tenants (fixed once created); then the way into it and its initial key's secret, once. */
export function CreateApplicationForm({ onCreated }: { onCreated: () => void }) {
  const id = useId();
  const [draft, setDraft, sync] = useDraft(NEW_APPLICATION, { keep: { name: 'new-application' } });
  // The newest application, and any earlier one whose initial key is still owed: shown once, it goes only when dismissed.
  const [created, setCreated] = useState<readonly CreatedApplication[]>([]);
  const submission = useSubmission<void>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submission.run(async () => {
      const application = await createApplication(draft.name.trim(), draft.multiTenant);
      setCreated((shown) => [...shown.filter((earlier) => earlier.initialKeySecret !== null), application]);
      setDraft(NEW_APPLICATION);
      onCreated();
    });
  };

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Create application</h2>
      <form noValidate onSubmit={submit}>
        <DraftNotes sync={sync} what="new application" />
        <RefusedField value={submission.refusal}>
          <TextField label="Name" value={draft.name} onChange={(name) => setDraft({ ...draft, name })} field="name" />
        </RefusedField>
        <fieldset>
          <legend>Tenancy (fixed once created)</legend>
          {TENANCY.map((choice) => (
            <div key={choice.label} className="choice">
              <label>
                <input
                  type="radio"
                  name={`${id}-tenancy`}
                  checked={draft.multiTenant === choice.multiTenant}
                  aria-describedby={`${id}-${choice.label}-hint`}
                  onChange={() => setDraft({ ...draft, multiTenant: choice.multiTenant })}
                />
                {choice.label}
              </label>
              <p id={`${id}-${choice.label}-hint`} className="hint">{choice.hint}</p>
            </div>
          ))}
        </fieldset>
        <div>
          <button type="submit" className="primary" disabled={submission.busy}>Create application</button>
        </div>
        <Refusal outcome={submission.outcome} />
      </form>
      {created.map((shown) => (
        <CreatedApplicationNotice
          key={shown.application.id}
          created={shown}
          onDismissKey={() =>
            setCreated((all) => all.map((each) => (each.application.id === shown.application.id ? { ...each, initialKeySecret: null } : each)))
          }
        />
      ))}
    </section>
  );
}

/** The way into a new application, and its initial key's secret, shown this once. */
function CreatedApplicationNotice({ created, onDismissKey }: { created: CreatedApplication; onDismissKey: () => void }) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-created`} className="created">
      <h3 id={`${id}-created`}>{`${created.application.name} is created`}</h3>
      {created.managed ? (
        <p>
          <a href={routeHash({ appId: created.application.id })}>{`Open ${created.application.name}`}</a> to set it up: you are its
          Application admin.
        </p>
      ) : (
        <p>You do not hold every permission of an Application admin, so you were not made its operator: its initial API key below manages it.</p>
      )}
      {created.initialKeySecret !== null && (
        <SecretOnce label="Its initial API key" secret={created.initialKeySecret} onDismiss={onDismissKey} />
      )}
    </section>
  );
}
