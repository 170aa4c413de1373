import { useDocumentTitle } from '../hooks/use-document-title.ts';
import type { ManagedApplication } from '../operations.ts';

interface TenantOperatorProps {
  readonly application: ManagedApplication;
  /** The tenants in which the operator holds a role, by name. */
  readonly tenants: readonly { readonly id: string; readonly name: string }[];
  readonly onBack: () => void;
}

/** An application in which the operator holds roles in some tenants only: those tenants, and where they manage them. */
export function TenantOperator({ application, tenants, onBack }: TenantOperatorProps) {
  useDocumentTitle('Your tenants', application.name);
  return (
    <>
      <button type="button" className="link back" onClick={onBack}>All applications</button>
      <h1>{application.name}</h1>
      <section aria-labelledby="tenant-operator-heading">
        <h2 id="tenant-operator-heading">Your tenants</h2>
        <ul aria-label="Tenants in which you hold a role">
          {tenants.map((tenant) => (
            <li key={tenant.id}>
              {tenant.name} <code>{tenant.id}</code>
            </li>
          ))}
        </ul>
        <p>
          The dashboard manages an application as a whole, which takes a role held application-wide: your tenants are
          managed through the API&apos;s tenant paths, <code>{`/applications/${application.id}/tenants/{tenantId}/…`}</code>.
        </p>
      </section>
    </>
  );
}
