import type { MayDo } from '../operations-own-permissions.ts';
import type { RoleSubjectType } from '../operations-roles.ts';
import { SubjectRoles } from './subject-roles.tsx';

interface CredentialRolesProps {
  appId: string;
  type: Extract<RoleSubjectType, 'm2m_credential' | 'api_key'>;
  credential: { readonly id: string; readonly name: string; readonly tenantId: string | null };
  /** What the operator holds application-wide, which decides the roles given and removed. */
  may: MayDo;
  onClose: () => void;
}

/** The roles panel of an M2M credential or API key: a tenant's own may hold roles in its tenant, an application-wide one in every tenant. */
export function CredentialRoles({ appId, type, credential, may, onClose }: CredentialRolesProps) {
  const { id, name, tenantId } = credential;
  return <SubjectRoles appId={appId} subject={{ type, id }} label={name} tenantIds={tenantId === null ? undefined : [tenantId]} may={may} onClose={onClose} />;
}
