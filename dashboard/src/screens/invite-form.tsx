import { useCallback, useId, useState, type FormEvent } from 'react';
import { DraftNotes } from '../components/draft-notes.tsx';
import { ErrorMessage, Loading, Outcome } from '../components/status.tsx';
import { TenantPicker } from '../components/tenant-picker.tsx';
import { RefusedField, refusalMarks, useRefusalMarks, useRefusedListMarks } from '../hooks/use-refused-field.ts';
import { useDraft } from '../hooks/use-draft.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useKeptChoices } from '../hooks/use-kept-choices.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import type { NamedTenant, TenantSummary } from '../operations.ts';
import { listLandingClients, sendInvitation, type Invitation, type InvitationPlace, type LandingClient } from '../operations-invitations.ts';
import type { MayDo } from '../operations-own-permissions.ts';
import { listAllRoles, type RoleSummary } from '../operations-roles.ts';

/** The API's default lifetime of a link, and its bounds. */
const DEFAULT_DAYS = 7;
const MAX_DAYS = 30;

interface RoleChoicesProps {
  place: InvitationPlace;
  tenant: NamedTenant;
  chosen: readonly string[];
  onToggle: (roleId: string) => void;
}

/** A checkbox per role an invitation to the tenant may give: the application-wide ones and the tenant's own. */
function RoleChoices({ place, tenant, chosen, onToggle }: RoleChoicesProps) {
  // Read in the tenant's scope, the roles its members may be given are those it lists too.
  const { appId } = place;
  const roles = useAsync(useCallback(() => listAllRoles(appId, tenant.id), [appId, tenant.id]));
  useReadOnReturn(roles);
  const kept = useKeptChoices((role: RoleSummary) => role.id);
  const id = useId();
  const marks = useRefusedListMarks('roleIds');
  if (roles.status === 'loading') return <Loading>{`Loading ${tenant.name}'s roles…`}</Loading>;
  if (roles.status === 'failed') return <ErrorMessage message={roles.message} />;
  const toggle = (roleId: string) => {
    if (!chosen.includes(roleId)) kept.pick(roles.data, roleId);
    onToggle(roleId);
  };
  const box = (role: RoleSummary, label: string) => (
    <label key={role.id} htmlFor={`${id}-${role.id}`}>
      <input id={`${id}-${role.id}`} type="checkbox" checked={chosen.includes(role.id)} onChange={() => toggle(role.id)} />
      {label}
    </label>
  );
  return (
    <fieldset className="role-choices" {...marks}>
      <legend>Roles (optional)</legend>
      {roles.data.map((role) => box(role, role.name))}
      {kept.gone(roles.data, chosen).map((role) => box(role, `${role.name} (no longer offered)`))}
    </fieldset>
  );
}

interface InvitationDraft {
  readonly email: string;
  readonly tenant: TenantSummary | null;
  readonly roleIds: readonly string[];
  readonly days: string;
  /** The OAuth client the accepted invitation leads to; '' for none. */
  readonly clientId: string;
}

const NEW_INVITATION: InvitationDraft = { email: '', tenant: null, roleIds: [], days: String(DEFAULT_DAYS), clientId: '' };

interface ClientChoiceProps {
  place: InvitationPlace;
  tenant: NamedTenant;
  chosen: string;
  onChoose: (clientId: string) => void;
}

/**
 * The OAuth client the accepted invitation leads to, with a redirect URI: the application-wide ones and the tenant's
 * own; in the tenant's scope, its own alone (the operator reads no others).
 */
function ClientChoice({ place, tenant, chosen, onChoose }: ClientChoiceProps) {
  const clients = useAsync(useCallback(() => listLandingClients(place, tenant.id), [place, tenant.id]));
  useReadOnReturn(clients);
  const kept = useKeptChoices((client: LandingClient) => client.clientId);
  const id = useId();
  const marks = useRefusalMarks('clientId');
  if (clients.status === 'loading') return <Loading>{`Loading ${tenant.name}'s OAuth clients…`}</Loading>;
  if (clients.status === 'failed') return <ErrorMessage message={clients.message} />;
  const [gone] = kept.gone(clients.data, chosen === '' ? [] : [chosen]);
  const choose = (clientId: string) => {
    kept.pick(clients.data, clientId);
    onChoose(clientId);
  };
  return (
    <div>
      <label htmlFor={`${id}-client`}>Once accepted, continue to (optional)</label>
      <select id={`${id}-client`} {...marks} value={chosen} onChange={(event) => choose(event.target.value)}>
        <option value="">No application</option>
        {clients.data.map((client) => (
          <option key={client.clientId} value={client.clientId}>
            {client.name}
          </option>
        ))}
        {gone !== undefined && <option value={gone.clientId}>{`${gone.name} (no longer offered)`}</option>}
      </select>
    </div>
  );
}

interface InviteFormProps {
  /** The application's (a tenant to choose), or one tenant's (in its scope). */
  place: InvitationPlace;
  /**
   * What the operator holds there: roles are offered with `roles:read` and `role_assignments:write` (which giving them
   * takes), clients with `oauth_clients:read`.
   */
  may: MayDo;
  /** How many invitations were resent or revoked: a refusal shown before one (a pending invitation) may be false now. */
  listChanges: number;
  onSent: (invitation: Invitation) => void;
}

/** "Invite": an address, the tenant it joins (the place's, if one), the roles it gets there, and how many days its link works. */
export function InviteForm({ place, may, listChanges, onSent }: InviteFormProps) {
  const [draft, setDraft, sync] = useDraft(NEW_INVITATION, { keep: { name: place.tenant === null ? 'new-invitation' : `new-invitation:${place.tenant.id}` } });
  const { email, roleIds, days, clientId } = draft;
  const tenant: NamedTenant | null = place.tenant ?? draft.tenant;
  const update = (patch: Partial<InvitationDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const action = useSubmission<string>();
  const [submittedAt, setSubmittedAt] = useState(listChanges);
  const id = useId();

  const choose = (next: TenantSummary | null) => update({ tenant: next, roleIds: [], clientId: '' });
  // Sorted: the boxes checked, in whatever order, are the same draft.
  const toggle = (roleId: string) =>
    setDraft((current) => ({
      ...current,
      roleIds: current.roleIds.includes(roleId) ? current.roleIds.filter((id) => id !== roleId) : [...current.roleIds, roleId].sort(),
    }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (tenant === null) return;
    const address = email.trim();
    setSubmittedAt(listChanges);
    action.run(async () => {
      const invitation = await sendInvitation(place, {
        email: address,
        ...(place.tenant === null ? { tenantId: tenant.id } : {}),
        roleIds: [...roleIds],
        expiresInDays: Number(days),
        ...(clientId === '' ? {} : { clientId }),
      });
      setDraft(NEW_INVITATION);
      onSent(invitation);
      return `An invitation to ${tenant.name} was created for ${address}, and its mail queued for delivery.`;
    });
  };

  return (
    <section aria-labelledby="invite-heading">
      <h2 id="invite-heading">{place.tenant === null ? 'Invite' : `Invite to ${place.tenant.name}`}</h2>
      <form className="inline-form invite-form" onSubmit={submit}>
        <DraftNotes sync={sync} what="invitation" />
        <div>
          <label htmlFor={`${id}-email`}>E-mail</label>
          <input id={`${id}-email`} type="email" required {...refusalMarks(action.refusal, 'email')} value={email} onChange={(event) => update({ email: event.target.value })} />
        </div>
        {place.tenant === null && (
          <RefusedField value={action.refusal}>
            <TenantPicker may={may} action="Inviting to a tenant" appId={place.appId} selected={draft.tenant} onSelect={choose} noTenantLabel="Choose a tenant" required field="tenantId" />
          </RefusedField>
        )}
        <div>
          <label htmlFor={`${id}-days`}>Link valid for (days)</label>
          <input
            id={`${id}-days`}
            type="number"
            required
            min={1}
            max={MAX_DAYS}
            {...refusalMarks(action.refusal, 'expiresInDays', `${id}-days-hint`)}
            value={days}
            onChange={(event) => update({ days: event.target.value })}
          />
          <p id={`${id}-days-hint`} className="hint">{`1 to ${MAX_DAYS}.`}</p>
        </div>
        {tenant !== null && may('oauth_clients:read') && (
          <RefusedField value={action.refusal}>
            <ClientChoice key={tenant.id} place={place} tenant={tenant} chosen={clientId} onChoose={(chosen) => update({ clientId: chosen })} />
          </RefusedField>
        )}
        {tenant !== null && may('roles:read') && may('role_assignments:write') && (
          <RefusedField value={action.refusal}>
            <RoleChoices key={tenant.id} place={place} tenant={tenant} chosen={roleIds} onToggle={toggle} />
          </RefusedField>
        )}
        <button type="submit" className="primary" disabled={action.busy}>Invite</button>
      </form>
      <p className="hint">
        The address is mailed a link to join the tenant, which works once; once accepted, the page links to the chosen client's application. A member of the tenant
        cannot be invited to it.
      </p>
      {submittedAt === listChanges && <Outcome outcome={action.outcome} />}
    </section>
  );
}
