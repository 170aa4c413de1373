import { useState, type FormEvent } from 'react';
import { Outcome } from '../components/status.tsx';
import { TenantPicker } from '../components/tenant-picker.tsx';
import { TextField } from '../components/text-field.tsx';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import type { TenancyConfig, TenantSummary, User } from '../operations.ts';
import { createUser } from '../operations-users.ts';

interface CreateUserFormProps {
  appId: string;
  /** The tenancy switches; null for a single-tenant application. */
  tenancy: TenancyConfig | null;
  onCreated: (user: User) => void;
}

/**
 * "Create user": an address, a name and a password, both optional, and in a multi-tenant application the tenant they
 * join (required when each tenant has its own users, as the API requires it then).
 */
export function CreateUserForm({ appId, tenancy, onCreated }: CreateUserFormProps) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [tenant, setTenant] = useState<TenantSummary | null>(null);
  const submission = useSubmission<string>();
  const isolated = tenancy?.authIsolation === 'isolated';

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const withPassword = password !== '';
    submission.run(async () => {
      const user = await createUser(appId, {
        email: email.trim(),
        name: name.trim() === '' ? null : name.trim(),
        password: withPassword ? password : null,
        tenantId: tenant?.id ?? null,
      });
      setEmail('');
      setName('');
      setPassword('');
      onCreated(user);
      return withPassword ? `${user.email} was created.` : `${user.email} was created without a password.`;
    });
  };

  return (
    <section aria-labelledby="create-user-heading">
      <h2 id="create-user-heading">Create user</h2>
      <form className="inline-form create-user-form" onSubmit={submit}>
        <RefusedField value={submission.refusal}>
          <TextField label="E-mail" type="email" value={email} onChange={setEmail} field="email" />
          <TextField label="Name (optional)" value={name} onChange={setName} field="name" />
          <TextField label="Password (optional)" type="password" autoComplete="new-password" value={password} onChange={setPassword} field="password" />
          {tenancy !== null && (
            <TenantPicker
              appId={appId}
              selected={tenant}
              onSelect={setTenant}
              noTenantLabel={isolated ? 'Choose a tenant' : 'No tenant'}
              required={isolated}
              field="tenantId"
            />
          )}
        </RefusedField>
        <button type="submit" className="primary" disabled={submission.busy}>Create user</button>
      </form>
      <p className="hint">
        The password must meet the password policy{isolated ? ' of the tenant' : ''}. Without one, the user signs in by another method the
        application offers, or sets a password through “Forgot your password?” on the sign-in page.
        {tenancy !== null && ' To let someone choose their own password as they join a tenant, invite them instead.'}
      </p>
      <Outcome outcome={submission.outcome} />
    </section>
  );
}
