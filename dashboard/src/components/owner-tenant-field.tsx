import { useId } from 'react';
import { refusalMarks, type FieldRefusal } from '../hooks/use-refused-field.ts';
import { mayPickTenant, type MayDo } from '../operations-own-permissions.ts';
import type { TenantChoices } from '../operations-tenant-choices.ts';
import { TenantsNeeded } from './tenants-needed.tsx';

interface OwnerTenantFieldProps {
  choices: TenantChoices;
  may: MayDo;
  /** What is made ("role"), to say what a tenant's own takes without tenants:read. */
  what: string;
  /** Null: application-wide. */
  tenantId: string | null;
  onChange: (tenantId: string | null) => void;
  /** The form's refusal, which marks the select when it names `tenantId`. */
  refusal: FieldRefusal | null;
}

/** Where a new role or permission lives in a multi-tenant application: application-wide or a tenant's own. Without
 *  tenants:read none is listed: application-wide, and the line saying what a tenant's own takes. */
export function OwnerTenantField({ choices, may, what, tenantId, onChange, refusal }: OwnerTenantFieldProps) {
  const id = useId();
  if (!choices.multiTenant) return null;
  if (!mayPickTenant(may)) return <TenantsNeeded may={may} action={`Making a tenant's own ${what}`} />;
  return (
    <div>
      <label htmlFor={id}>Tenant</label>
      <select id={id} {...refusalMarks(refusal, 'tenantId')} value={tenantId ?? ''} onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}>
        <option value="">Application-wide</option>
        {choices.tenants.map((tenant) => <option key={tenant.id} value={tenant.id}>{`${tenant.name}'s own`}</option>)}
      </select>
    </div>
  );
}
