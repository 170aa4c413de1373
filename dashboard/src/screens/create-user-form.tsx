import type { FormEvent } from 'react';
import { DraftNotes } from '../components/draft-notes.tsx';
import { Outcome } from '../components/status.tsx';
import { TenantPicker } from '../components/tenant-picker.tsx';
import { TextField } from '../components/text-field.tsx';
import { useDraft } from '../hooks/use-draft.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { scopeIn, type NamedTenant, type TenancyConfig, type TenantSummary, type User } from '../operations.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import { createUser } from '../operations-users.ts';

const NEW_USER = { email: '', name: '', password: '', tenant: null as TenantSummary | null };

interface CreateUserFormProps {
  appId: string;
  /** Created in this tenant's scope, as its member (no tenant asked); null: in the application's. */
  tenant: NamedTenant | null;
  /** The tenancy switches; null for a single-tenant application. */
  tenancy: TenancyConfig | null;
  onCreated: (user: User) => void;
  may: MayDo;
}

/**
 * "Create user": an address, a name and a password, both optional, and in a multi-tenant application the tenant they
 * join (required when each tenant has its own users, as the API requires it then); in a tenant's scope, that tenant.
 */
export function CreateUserForm({ appId, tenant: inTenant, tenancy, onCreated, may }: CreateUserFormProps) {
  const draftName = inTenant === null ? 'new-user' : `new-user:${inTenant.id}`;
  const [draft, setDraft, sync] = useDraft(NEW_USER, { keep: { name: draftName, withoutSecrets: (typed) => ({ ...typed, password: '' }) } });
  const { email, name, password, tenant } = draft;
  const update = (patch: Partial<typeof NEW_USER>) => setDraft((current) => ({ ...current, ...patch }));
  const submission = useSubmission<string>();
  const isolated = tenancy?.authIsolation === 'isolated';

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const withPassword = password !== '';
    submission.run(async () => {
      const user = await createUser(scopeIn(appId, inTenant), {
        email: email.trim(),
        name: name.trim() === '' ? null : name.trim(),
        password: withPassword ? password : null,
        tenantId: tenant?.id ?? null,
      });
      setDraft(NEW_USER);
      onCreated(user);
      return withPassword ? `${user.email} was created.` : `${user.email} was created without a password.`;
    });
  };

  const heading = inTenant === null ? 'Create user' : `Create a user in ${inTenant.name}`;
  const policy = inTenant === null ? `the password policy${isolated ? ' of the tenant' : ''}` : "the password policy of the user's pool";
  return (
    <section aria-labelledby="create-user-heading">
      <h2 id="create-user-heading">{heading}</h2>
      <form className="inline-form create-user-form" onSubmit={submit}>
        <DraftNotes sync={sync} what="new user" />
        <RefusedField value={submission.refusal}>
          <TextField label="E-mail" type="email" value={email} onChange={(typed) => update({ email: typed })} field="email" />
          <TextField label="Name (optional)" value={name} onChange={(typed) => update({ name: typed })} field="name" />
          <TextField label="Password (optional)" type="password" autoComplete="new-password" value={password} onChange={(typed) => update({ password: typed })} field="password" />
          {tenancy !== null && (
            <TenantPicker
              may={may}
              action="Choosing the new user's tenant"
              appId={appId}
              selected={tenant}
              onSelect={(chosen) => update({ tenant: chosen })}
              noTenantLabel={isolated ? 'Choose a tenant' : 'No tenant'}
              required={isolated}
              field="tenantId"
            />
          )}
        </RefusedField>
        <button type="submit" className="primary" disabled={submission.busy}>Create user</button>
      </form>
      <p className="hint">
        The password must meet {policy}. Without one, the user signs in by another method the
        application offers, or sets a password through “Forgot your password?” on the sign-in page.
        {tenancy !== null && ' To let someone choose their own password as they join a tenant, invite them instead.'}
      </p>
      <Outcome outcome={submission.outcome} />
    </section>
  );
}
