import { useCallback, useId } from 'react';
import { usePages } from '../hooks/use-pages.ts';
import { listTenantSummaries, type TenantSummary } from '../operations.ts';
import { PageFooter } from './page-footer.tsx';

interface TenantPickerProps {
  appId: string;
  /** The tenant shown, or null for the application-wide value (or, when `required`, none chosen yet). */
  selected: TenantSummary | null;
  onSelect: (tenant: TenantSummary | null) => void;
  /** The picker's label ("Tenant" unless told). */
  label?: string;
  /** The first choice, no tenant ("Application" unless told). */
  noTenantLabel?: string;
  /** Whether a tenant must be chosen (the first choice then only asks for one). */
  required?: boolean;
}

/** The "Tenant" picker of a per-tenant feature: "Application" for the application-wide value, then the tenants. */
export function TenantPicker({ appId, selected, onSelect, label = 'Tenant', noTenantLabel = 'Application', required = false }: TenantPickerProps) {
  const tenants = usePages(useCallback((cursor: string | null) => listTenantSummaries(appId, cursor), [appId]));
  const id = useId();
  return (
    <div className="picker">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        required={required}
        value={selected?.id ?? ''}
        onChange={(event) => onSelect(tenants.items.find((tenant) => tenant.id === event.target.value) ?? null)}
      >
        <option value="">{noTenantLabel}</option>
        {tenants.items.map((tenant) => (
          <option key={tenant.id} value={tenant.id}>{tenant.name}</option>
        ))}
      </select>
      <PageFooter pages={tenants} loadingLabel="Loading tenants…" />
    </div>
  );
}
