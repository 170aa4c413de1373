import { useId, type FormEvent } from 'react';
import { DraftNotes } from '../components/draft-notes.tsx';
import { Outcome } from '../components/status.tsx';
import { TextField } from '../components/text-field.tsx';
import { useDraft } from '../hooks/use-draft.ts';
import { useFocusOnOpen } from '../hooks/use-focus-on-open.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import type { TenantSummary } from '../operations.ts';
import { createTenant, updateTenant } from '../operations-tenants.ts';

const NEW_TENANT = { name: '', slug: '' };

interface TenantFormProps {
  appId: string;
  /** The tenant renamed; none to create one. */
  tenant?: TenantSummary;
  onSaved: (tenant: TenantSummary) => void;
  onClose?: () => void;
}

/** "Create tenant" (a name, and a slug the server derives from it when left empty), or the renaming of a tenant. */
export function TenantForm({ appId, tenant, onSaved, onClose }: TenantFormProps) {
  const headingId = useId();
  // The rename form opens below the table, at a Rename button's click.
  const focusOnOpen = useFocusOnOpen();
  const [draft, setDraft, sync] = useDraft(tenant === undefined ? NEW_TENANT : { name: tenant.name, slug: tenant.slug }, { keep: { name: `tenant:${tenant?.id ?? 'new'}` } });
  const { name, slug } = draft;
  const submission = useSubmission<string>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = { name: name.trim(), slug: slug.trim() === '' ? null : slug.trim() };
    submission.run(async () => {
      if (tenant !== undefined) {
        const renamed = await updateTenant(appId, tenant.id, input);
        sync.saved();
        onSaved(renamed);
        return `Tenant ${renamed.name} (${renamed.slug}) saved.`;
      }
      const created = await createTenant(appId, input);
      setDraft(NEW_TENANT);
      onSaved(created);
      return `Tenant ${created.name} created, with the slug ${created.slug}.`;
    });
  };

  return (
    <section aria-labelledby={headingId} className={tenant === undefined ? undefined : 'panel'}>
      {tenant === undefined ? (
        <h2 id={headingId}>Create tenant</h2>
      ) : (
        <h3 id={headingId} ref={focusOnOpen} tabIndex={-1}>{`Rename ${tenant.name}`}</h3>
      )}
      <DraftNotes sync={sync} what="tenant" />
      <form className="inline-form" onSubmit={submit}>
        <RefusedField value={submission.refusal}>
          <TextField label="Name" value={name} onChange={(typed) => setDraft({ ...draft, name: typed })} field="name" />
          <TextField
            label={tenant === undefined ? 'Slug (optional)' : 'Slug'}
            value={slug}
            onChange={(typed) => setDraft({ ...draft, slug: typed })}
            hint={`Lower-case letters, digits and hyphens, unique in the application; ${tenant === undefined ? 'derived from the name' : 'kept as it is'} when left empty.`}
            field="slug"
          />
        </RefusedField>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={submission.busy}>{tenant === undefined ? 'Create tenant' : 'Save tenant'}</button>
          {onClose !== undefined && <button type="button" onClick={onClose}>Close</button>}
        </div>
      </form>
      <Outcome outcome={submission.outcome} />
    </section>
  );
}
