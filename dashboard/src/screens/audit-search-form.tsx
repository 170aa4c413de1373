import { useId, useState, type FormEvent } from 'react';
import { ACTION_CHOICES } from '../audit-action-choices.ts';
import { Loading, Outcome } from '../components/status.tsx';
import { RefusedField, refusalMarks } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { listAuditRecords, referenceByEmail, type AuditFilter, type NamedAuditRecord } from '../operations-audit.ts';
import type { Page, NamedTenant, SettingsScope } from '../operations.ts';
import { AuditReferenceField, noReference, type ReferenceDraft } from './audit-reference-field.tsx';

interface AuditSearchFormProps {
  /** The application's log, or a tenant's (an operator of that tenant's screen). */
  place: SettingsScope;
  /** The tenants to pick from; no Tenant field without them (a single-tenant application, a tenant's log, no tenants:read). */
  tenants: readonly NamedTenant[];
  /** Whether users and operators may be named by address (which reads the users), else by id only. */
  byAddress: boolean;
  /** A search's filter and first page, read as it is submitted; null while it runs and once it is refused. */
  onSearch: (search: AuditSearch | null) => void;
}

export interface AuditSearch {
  readonly filter: AuditFilter;
  readonly first: Page<NamedAuditRecord>;
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

const emptyDraft = (byAddress: boolean): Draft => ({ action: '', actor: noReference(byAddress), target: noReference(byAddress), tenantId: '', from: '', to: '' });

/** A `datetime-local` value (no offset, so the browser's time zone) as an ISO instant. */
const instant = (local: string) => new Date(local).toISOString();

const given = (value: string) => (value.trim() === '' ? undefined : value.trim());

/** The filter the draft stands for, and who each address named turned out to be ("the operator a@b.example"). */
async function filterOf(place: SettingsScope, draft: Draft): Promise<{ readonly filter: AuditFilter; readonly named: readonly string[] }> {
  const tenantId = given(draft.tenantId);
  const named: string[] = [];
  const idOf = async (field: 'actor' | 'target', { kind, text }: ReferenceDraft) => {
    const value = given(text);
    if (value === undefined || kind === 'id') return value;
    const found = await referenceByEmail(place.appId, field, value, tenantId ?? place.tenantId ?? undefined);
    named.push(`${field === 'actor' ? 'Actor' : 'Target'}: the ${found.type} ${value}.`);
    return found.id;
  };
  const filter = {
    action: given(draft.action),
    actor: await idOf('actor', draft.actor),
    target: await idOf('target', draft.target),
    tenantId,
    from: draft.from === '' ? undefined : instant(draft.from),
    to: draft.to === '' ? undefined : instant(draft.to),
  };
  return { filter, named };
}

/**
 * The audit search's filters, applied on submit: the actions the service writes offered by name and family, users and
 * operators by address, anything else by id. The first page is read as the search is submitted, so that the server's
 * refusal of a filter marks its input, and a refused search shows no records.
 */
export function AuditSearchForm({ place, tenants, byAddress, onSearch }: AuditSearchFormProps) {
  const [draft, setDraft] = useState<Draft>(() => emptyDraft(byAddress));
  const searching = useSubmission<string>();
  const id = useId();
  const field = (name: TextField) => ({
    id: `${id}-${name}`,
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft((current) => ({ ...current, [name]: event.target.value })),
    ...refusalMarks(searching.refusal, name),
  });
  const reference = (name: 'actor' | 'target') => ({
    place,
    byAddress,
    draft: draft[name],
    onChange: (value: ReferenceDraft) => setDraft((current) => ({ ...current, [name]: value })),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    searching.run(async () => {
      // No records show until this search's are read: the earlier search's would pass for its answer, or for a refused one's.
      onSearch(null);
      const { filter, named } = await filterOf(place, draft);
      onSearch({ filter, first: await listAuditRecords(place, filter, null) });
      return named.join(' ');
    });
  };

  return (
    <RefusedField.Provider value={searching.refusal}>
      <form className="audit-search" aria-label="Search the audit log" onSubmit={submit}>
        <div>
          <label htmlFor={`${id}-action`}>Action</label>
          <input type="text" placeholder="user.created, or user.* for all" list={`${id}-actions`} {...field('action')} />
          <datalist id={`${id}-actions`}>
            {ACTION_CHOICES.map((choice) => <option key={choice.value} value={choice.value} label={choice.label} />)}
          </datalist>
        </div>
        <AuditReferenceField name="Actor" field="actor" idHint="a user, credential or key id" {...reference('actor')} />
        <AuditReferenceField name="Target" field="target" idHint="the id of what changed" {...reference('target')} />
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
        <button type="submit" className="primary" disabled={searching.busy}>Search</button>
      </form>
      {searching.busy && <Loading>Loading audit records…</Loading>}
      {searching.outcome !== null && !('done' in searching.outcome && searching.outcome.done === '') && <Outcome outcome={searching.outcome} />}
    </RefusedField.Provider>
  );
}
