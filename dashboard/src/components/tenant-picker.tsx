import { useCallback, useId, useRef, useState } from 'react';
import { useRefusalMarks } from '../hooks/use-refused-field.ts';
import { useDebounced } from '../hooks/use-debounced.ts';
import { usePages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { listTenantSummaries, type TenantSummary } from '../operations.ts';
import { mayPickTenant, type MayDo } from '../operations-own-permissions.ts';
import { PageFooter } from './page-footer.tsx';
import { TenantsNeeded } from './tenants-needed.tsx';

interface TenantListProps {
  appId: string;
  /** The tenant shown, or null for the application-wide value (or, when `required`, none chosen yet). */
  selected: TenantSummary | null;
  onSelect: (tenant: TenantSummary | null) => void;
  label?: string;
  noTenantLabel?: string;
  /** Whether a tenant must be chosen (the first choice then only asks for one). */
  required?: boolean;
  /** The API's name of the tenant chosen (`tenantId`), by which a refusal marks the select. */
  field?: string;
}

interface TenantPickerProps extends TenantListProps {
  may: MayDo;
  /** What choosing a tenant does ("Choosing the key's tenant"), to explain why no choice shows without tenants:read. */
  action: string;
}

const SEARCH_DELAY_MS = 300;
/** The server's limit: a tenant's name is at most this long. */
const SEARCH_MAX_LENGTH = 200;

/** What is sent of what was typed: names start with no space, and an empty search is every tenant. */
const searchOf = (typed: string): string | null => (typed.trimStart() === '' ? null : typed.trimStart());

/** The tenants to choose from, or without tenants:read (which lists them) none: the line saying why instead. */
export function TenantPicker({ may, action, ...list }: TenantPickerProps) {
  return mayPickTenant(may) ? <TenantList {...list} /> : <TenantsNeeded may={may} action={action} />;
}

/** "Application" for the application-wide value, then the tenants page by page, narrowed by a search (name or slug start). */
function TenantList({ appId, selected, onSelect, label = 'Tenant', noTenantLabel = 'Application', required = false, field }: TenantListProps) {
  const [typed, setTyped] = useState('');
  const search = searchOf(useDebounced(typed, SEARCH_DELAY_MS));
  const tenants = usePages(useCallback((cursor: string | null) => listTenantSummaries(appId, cursor, { search }), [appId, search]));
  useReadOnReturn(tenants);
  // The tenant chosen stays a choice while a search leaves it out, so the picker goes on showing it.
  const choices = selected === null || tenants.items.some((tenant) => tenant.id === selected.id) ? tenants.items : [selected, ...tenants.items];
  const id = useId();
  const picker = useRef<HTMLSelectElement>(null);
  const focusPicker = useCallback(() => picker.current?.focus(), []);
  const { ref: focusRefused, ...marks } = useRefusalMarks(field);
  const pickerRef = useCallback(
    (element: HTMLSelectElement | null) => {
      picker.current = element;
      focusRefused?.(element);
    },
    [focusRefused],
  );
  return (
    <div className="picker tenant-picker">
      <label htmlFor={`${id}-search`}>Name or slug starts with</label>
      <input
        id={`${id}-search`}
        type="search"
        maxLength={SEARCH_MAX_LENGTH}
        autoComplete="off"
        aria-controls={id}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        // Enter in the box searches, never submits the form around the picker.
        onKeyDown={(event) => event.key === 'Enter' && event.preventDefault()}
      />
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        ref={pickerRef}
        required={required}
        {...marks}
        value={selected?.id ?? ''}
        onChange={(event) => onSelect(choices.find((tenant) => tenant.id === event.target.value) ?? null)}
      >
        <option value="">{noTenantLabel}</option>
        {choices.map((tenant) => (
          <option key={tenant.id} value={tenant.id}>{tenant.name}</option>
        ))}
      </select>
      {search !== null && !tenants.loading && tenants.error === null && tenants.items.length === 0 && <span role="status">{`No tenant's name or slug starts with ${search}.`}</span>}
      <PageFooter pages={tenants} loadingLabel="Loading tenants…" focusFrom={focusPicker} />
    </div>
  );
}
