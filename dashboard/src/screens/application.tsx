import { useState } from 'react';
import type { ManagedApplication } from '../operations.ts';
import { Tenants } from './tenants.tsx';
import { Users } from './users.tsx';

type Tab = 'Tenants' | 'Users';

/** One managed application: its name, and its Tenants (multi-tenant only) and Users tabs. */
export function Application({ application, onBack }: { application: ManagedApplication; onBack?: () => void }) {
  const tabs: Tab[] = application.multiTenant ? ['Tenants', 'Users'] : ['Users'];
  const [tab, setTab] = useState<Tab>(application.multiTenant ? 'Tenants' : 'Users');
  return (
    <>
      {onBack !== undefined && (
        <button type="button" className="link back" onClick={onBack}>All applications</button>
      )}
      <h1>{application.name}</h1>
      <nav aria-label="Application sections">
        <ul className="tabs">
          {tabs.map((name) => (
            <li key={name}>
              <button type="button" aria-current={tab === name ? 'page' : undefined} onClick={() => setTab(name)}>{name}</button>
            </li>
          ))}
        </ul>
      </nav>
      {tab === 'Tenants' ? <Tenants appId={application.id} /> : <Users appId={application.id} />}
    </>
  );
}
