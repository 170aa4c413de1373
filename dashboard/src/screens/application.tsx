import { useState, type JSX } from 'react';
import type { ManagedApplication } from '../operations.ts';
import { Authentication } from './authentication.tsx';
import { Branding } from './branding.tsx';
import { Email } from './email.tsx';
import { Operators } from './operators.tsx';
import { Tenants } from './tenants.tsx';
import { Users } from './users.tsx';

type Tab = 'Tenants' | 'Branding' | 'E-mail' | 'Authentication' | 'Users' | 'Operators';

const SCREENS: Record<Tab, (props: { appId: string }) => JSX.Element> = { Tenants, Branding, 'E-mail': Email, Authentication, Users, Operators };
const TABS = Object.keys(SCREENS) as Tab[];

/** One managed application: its name, and its tabs (Tenants for a multi-tenant application only). */
export function Application({ application, onBack }: { application: ManagedApplication; onBack?: () => void }) {
  const tabs = application.multiTenant ? TABS : TABS.filter((name) => name !== 'Tenants');
  const [tab, setTab] = useState<Tab>(application.multiTenant ? 'Tenants' : 'Users');
  const Screen = SCREENS[tab];
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
      <Screen appId={application.id} />
    </>
  );
}
