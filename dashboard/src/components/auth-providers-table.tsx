import type { ReactNode } from 'react';
import { enabledWords, typeWords } from '../auth-provider-kinds.ts';
import type { AuthProvider } from '../operations-email-auth.ts';

interface AuthProvidersTableProps {
  providers: readonly AuthProvider[];
  /** A provider's buttons, where this scope may change it (null where it may not); no Actions column without it. */
  actions?: (provider: AuthProvider) => ReactNode;
}

/** The auth providers in force: type (an OAuth one's with its preset), name, and whether users may sign in with it. */
export function AuthProvidersTable({ providers, actions }: AuthProvidersTableProps) {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Type</th>
          <th scope="col">Name</th>
          <th scope="col">Enabled</th>
          {actions !== undefined && <th scope="col"><span className="visually-hidden">Actions</span></th>}
        </tr>
      </thead>
      <tbody>
        {providers.map((provider) => (
          <tr key={provider.id}>
            <th scope="row">{typeWords(provider)}</th>
            <td>{provider.name}</td>
            <td>{enabledWords(provider.type).state(provider.enabled)}</td>
            {actions !== undefined && <td className="actions">{actions(provider)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
