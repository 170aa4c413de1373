import { useId, useState, type FormEvent } from 'react';
import type { AuditFilter } from '../operations-audit.ts';
import type { TenantSummary } from '../operations.ts';

interface AuditSearchFormProps {
  /** The tenants to pick from; no Tenant field without them (a single-tenant application). */
  tenants: readonly TenantSummary[];
  onSearch: (filter: AuditFilter) => void;
}

const FIELDS = [
  ['action', 'Action', 'user.created or user.*'],
  ['actor', 'Actor ID', 'a user, credential or key id'],
  ['target', 'Target ID', 'the id of what changed'],
] as const;

type Draft = Record<(typeof FIELDS)[number][0] | 'tenantId' | 'from' | 'to', string>;

const EMPTY: Draft = { action: '', actor: '', target: '', tenantId: '', from: '', to: '' };

/** A `datetime-local` value (no offset, so the browser's time zone) as an ISO instant. */
const instant = (local: string) => new Date(local).toISOString();

function filterOf(draft: Draft): AuditFilter {
  const given = (value: string) => (value.trim() === '' ? undefined : value.trim());
  return {
    action: given(draft.action),
    actor: given(draft.actor),
    target: given(draft.target),
    tenantId: given(draft.tenantId),
    from: draft.from === '' ? undefined : instant(draft.from),
    to: draft.to === '' ? undefined : instant(draft.to),
  };
}

/** The audit search's filters, applied on submit; the server checks them and says what it refuses. */
export function AuditSearchForm({ tenants, onSearch }: AuditSearchFormProps) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const id = useId();
  const field = (name: keyof Draft) => ({
    id: `${id}-${name}`,
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft((current) => ({ ...current, [name]: event.target.value })),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSearch(filterOf(draft));
  };

  return (
    <form className="audit-search" aria-label="Search the audit log" onSubmit={submit}>
      {FIELDS.map(([name, label, hint]) => (
        <div key={name}>
          <label htmlFor={`${id}-${name}`}>{label}</label>
          <input type="text" placeholder={hint} {...field(name)} />
        </div>
      ))}
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
      <button type="submit" className="primary">Search</button>
    </form>
  );
}
