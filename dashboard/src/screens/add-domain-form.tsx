import { useId, type FormEvent } from 'react';
import { DraftNotes } from '../components/draft-notes.tsx';
import { Outcome } from '../components/status.tsx';
import { useDraft } from '../hooks/use-draft.ts';
import { refusalMarks } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { createDomain, type Domain } from '../operations-domains.ts';
import type { NamedTenant } from '../operations.ts';

interface AddDomainFormProps {
  appId: string;
  /** Null: a domain of the application. */
  tenant: NamedTenant | null;
  onAdded: (domain: Domain) => void;
}

/** "Add domain": a hostname, sent as typed; the server alone says whether it is one it accepts. */
export function AddDomainForm({ appId, tenant, onAdded }: AddDomainFormProps) {
  const [hostname, setHostname, sync] = useDraft('', { keep: { name: 'new-domain' } });
  const action = useSubmission<string>();
  const id = useId();
  const marks = refusalMarks(action.refusal, 'hostname', `${id}-hint`);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    action.run(async () => {
      const domain = await createDomain(appId, tenant?.id ?? null, hostname.trim());
      setHostname('');
      onAdded(domain);
      return `${domain.hostname} is added: publish its TXT record, then Verify.`;
    });
  };

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{tenant === null ? 'Add domain' : `Add a domain of ${tenant.name}`}</h3>
      <form className="inline-form" noValidate onSubmit={submit}>
        <DraftNotes sync={sync} what="new domain" />
        <div>
          <label htmlFor={`${id}-hostname`}>Hostname</label>
          <input
            id={`${id}-hostname`}
            required
            spellCheck={false}
            {...marks}
            value={hostname}
            onChange={(event) => setHostname(event.target.value)}
          />
        </div>
        <button type="submit" className="primary" disabled={action.busy}>Add domain</button>
      </form>
      <p id={`${id}-hint`} className="hint">A fully qualified name such as login.example.com: no scheme, port or path.</p>
      <Outcome outcome={action.outcome} />
    </section>
  );
}
