import { useId, useState, type FormEvent } from 'react';
import { ACTION_CHOICES } from '../audit-action-choices.ts';
import { ErrorMessage } from '../components/status.tsx';
import { useSubmission } from '../hooks/use-submission.ts';
import { userIdByEmail, type AuditFilter } from '../operations-audit.ts';
import type { TenantSummary } from '../operations.ts';
import { AuditReferenceField, NO_REFERENCE, type ReferenceDraft } from './audit-reference-field.tsx';

interface AuditSearchFormProps {
  appId: string;
  /** The tenants to pick from; no Tenant field without them (a single-tenant application). */
  tenants: readonly TenantSummary[];
  onSearch: (filter: AuditFilter) => void;
}

interface Draft {
  readonly action: string;
  readonly actor: ReferenceDraft;
  readonly target: ReferenceDraft;
  readonly tenantId: string;
  readonly from: string;
  readonly to: string;
}

type TextField = 'action' | 'tenantId' | 'from' | 'to';

const EMPTY: Draft = { action: '', actor: NO_REFERENCE, target: NO_REFERENCE, tenantId: '', from: '', to: '' };

/** A `datetime-local` value (no offset, so the browser's time zone) as an ISO instant. */
const instant = (local: string) => new Date(local).toISOString();

const given = (value: string) => (value.trim() === '' ? undefined : value.trim());

/** The filter the draft stands for: a user named by address is read for their id (in the tenant picked, if any). */
async function filterOf(appId: string, draft: Draft): Promise<AuditFilter> {
  const tenantId = given(draft.tenantId);
  const idOf = async ({ kind, text }: ReferenceDraft) => {
    const value = given(text);
    return value === undefined || kind === 'id' ? value : userIdByEmail(appId, value, tenantId);
  };
  return {
    action: given(draft.action),
    actor: await idOf(draft.actor),
    target: await idOf(draft.target),
    tenantId,
    from: draft.from === '' ? undefined : instant(draft.from),
    to: draft.to === '' ? undefined : instant(draft.to),
  };
}

/**
 * The audit search's filters, applied on submit: the actions the service writes offered by name and family, users by
 * address, anything else by id. The server checks the filters and says what it refuses.
 */
export function AuditSearchForm({ appId, tenants, onSearch }: AuditSearchFormProps) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const resolving = useSubmission<void>();
  const id = useId();
  const field = (name: TextField) => ({
    id: `${id}-${name}`,
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft((current) => ({ ...current, [name]: event.target.value })),
  });
  const reference = (name: 'actor' | 'target') => ({
    appId,
    draft: draft[name],
    onChange: (value: ReferenceDraft) => setDraft((current) => ({ ...current, [name]: value })),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    resolving.run(async () => onSearch(await filterOf(appId, draft)));
  };

  return (
    <>
      <form className="audit-search" aria-label="Search the audit log" onSubmit={submit}>
        <div>
          <label htmlFor={`${id}-action`}>Action</label>
          <input type="text" placeholder="user.created, or user.* for all" list={`${id}-actions`} {...field('action')} />
          <datalist id={`${id}-actions`}>
            {ACTION_CHOICES.map((choice) => <option key={choice.value} value={choice.value} label={choice.label} />)}
          </datalist>
        </div>
        <AuditReferenceField name="Actor" idHint="a user, credential or key id" {...reference('actor')} />
        <AuditReferenceField name="Target" idHint="the id of what changed" {...reference('target')} />
        {tenants.length > 0 && (
          <div>
            <label htmlFor={`${id}-tenantId`}>Tenant</label>
            <select {...field('tenantId')}>
              <option value="">All tenants</option>
              {tenants.map((tenant) => <option key={tenant.id} value={tenant.id}>{tenant.name}</option>)}
            </select>
          </div>
        )}
        <div>
          <label htmlFor={`${id}-from`}>From</label>
          <input type="datetime-local" step="1" {...field('from')} />
        </div>
        <div>
          <label htmlFor={`${id}-to`}>To</label>
          <input type="datetime-local" step="1" {...field('to')} />
        </div>
        <button type="submit" className="primary" disabled={resolving.busy}>Search</button>
      </form>
      {resolving.outcome !== null && 'refused' in resolving.outcome && <ErrorMessage message={resolving.outcome.refused} />}
    </>
  );
}
