import type { AuthProvider, AuthProviderType } from '../operations-email-auth.ts';

const TYPE_LABEL: Record<AuthProviderType, string> = {
  password: 'Password',
  magic_link: 'Magic link',
  oauth: 'OAuth',
  passkey: 'Passkey',
  saml: 'SAML',
  m2m: 'M2M',
  api_keys: 'API keys',
};

/** The auth providers in force: type, name, and whether users may sign in with it. */
export function AuthProvidersTable({ providers }: { providers: readonly AuthProvider[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Type</th>
          <th scope="col">Name</th>
          <th scope="col">Enabled</th>
        </tr>
      </thead>
      <tbody>
        {providers.map((provider) => (
          <tr key={provider.id}>
            <th scope="row">{TYPE_LABEL[provider.type]}</th>
            <td>{provider.name}</td>
            <td>{provider.enabled ? 'Yes' : 'No'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
