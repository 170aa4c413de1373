import { useId, useState } from 'react';
import { useRefusalMarks } from '../hooks/use-refused-field.ts';
import type { NamedTenant, TenantSummary } from '../operations.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import type { RoleChoices, RoleGrant } from '../operations-roles.ts';
import { assignableRoles, placeName } from '../role-choices.ts';
import { TenantPicker } from './tenant-picker.tsx';

interface RoleGrantFieldsProps {
  choices: RoleChoices;
  /** The tenants offered; absent: every tenant of `appId`'s, through the searching tenant picker. */
  tenants?: readonly NamedTenant[];
  appId: string;
  /** Whether "All tenants" is offered: not in a tenant's scope, where a grant holds in that tenant only. */
  everyTenant?: boolean;
  grant: RoleGrant;
  onChange: (grant: RoleGrant) => void;
  may: MayDo;
}

/** The first role assignable in every tenant (or in `tenantId`): where a grant form starts. */
export function firstGrant(choices: RoleChoices, tenantId: string | null = null): RoleGrant {
  return { roleId: assignableRoles(choices, tenantId)[0]?.id ?? '', tenantId };
}

/** The "Role" and, in a multi-tenant application, "Tenant" ("All tenants" or one) of a role to give. */
export function RoleGrantFields({ choices, tenants, appId, everyTenant = true, grant, onChange, may }: RoleGrantFieldsProps) {
  const id = useId();
  const roleMarks = useRefusalMarks('roleId');
  const tenantMarks = useRefusalMarks('tenantId');
  // The tenant last picked, as the picker read it: one made since the choices were read is named too.
  const [picked, setPicked] = useState<TenantSummary | null>(null);
  const chooseTenant = (tenantId: string | null) => {
    const roles = assignableRoles(choices, tenantId);
    const kept = roles.some((role) => role.id === grant.roleId);
    onChange({ tenantId, roleId: kept ? grant.roleId : (roles[0]?.id ?? '') });
  };
  const selected = grant.tenantId === null ? null : picked?.id === grant.tenantId ? picked : { id: grant.tenantId, name: placeName(choices, grant.tenantId), slug: '' };
  return (
    <>
      <div>
        <label htmlFor={`${id}-role`}>Role</label>
        <select id={`${id}-role`} {...roleMarks} value={grant.roleId} onChange={(event) => onChange({ ...grant, roleId: event.target.value })}>
          {assignableRoles(choices, grant.tenantId).map((role) => <option key={role.id} value={role.id}>{role.name}</option>)}
        </select>
      </div>
      {choices.multiTenant && tenants === undefined && (
        <TenantPicker
          may={may}
          action="Giving a role in one tenant"
          appId={appId}
          selected={selected}
          onSelect={(tenant) => {
            setPicked(tenant);
            chooseTenant(tenant?.id ?? null);
          }}
          noTenantLabel="All tenants"
          field="tenantId"
        />
      )}
      {choices.multiTenant && tenants !== undefined && (
        <div>
          <label htmlFor={`${id}-tenant`}>Tenant</label>
          <select id={`${id}-tenant`} {...tenantMarks} value={grant.tenantId ?? ''} onChange={(event) => chooseTenant(event.target.value === '' ? null : event.target.value)}>
            {everyTenant && <option value="">All tenants</option>}
            {tenants.map((tenant) => <option key={tenant.id} value={tenant.id}>{tenant.name}</option>)}
          </select>
        </div>
      )}
    </>
  );
}
