import { useCallback } from 'react';
import { usePages } from '../hooks/use-pages.ts';
import { listTenantSummaries, type TenantSummary } from '../operations.ts';
import { PageFooter } from './page-footer.tsx';

interface TenantPickerProps {
  appId: string;
  /** The tenant shown, or null for the application-wide value. */
  selected: TenantSummary | null;
  onSelect: (tenant: TenantSummary | null) => void;
}

/** The "Tenant" picker of a per-tenant feature: "Application" for the application-wide value, then the tenants. */
export function TenantPicker({ appId, selected, onSelect }: TenantPickerProps) {
  const tenants = usePages(useCallback((cursor: string | null) => listTenantSummaries(appId, cursor), [appId]));
  return (
    <div className="picker">
      <label htmlFor="tenant-picker">Tenant</label>
      <select
        id="tenant-picker"
        value={selected?.id ?? ''}
        onChange={(event) => onSelect(tenants.items.find((tenant) => tenant.id === event.target.value) ?? null)}
      >
        <option value="">Application</option>
        {tenants.items.map((tenant) => (
          <option key={tenant.id} value={tenant.id}>{tenant.name}</option>
        ))}
      </select>
      <PageFooter pages={tenants} loadingLabel="Loading tenants…" />
    </div>
  );
}
