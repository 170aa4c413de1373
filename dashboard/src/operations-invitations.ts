import { FULL_PAGE, readAllPages } from './all-pages.ts';
import { callInScope, scopeIn, type NamedTenant, type Page } from './operations.ts';
import { readNames, type ItemReference, type NameOf } from './operations-names.ts';
import { getSession } from './session.ts';

// The invitations' calls: invitations are to one tenant, sent on the application's path with its `tenantId` (the
// Invitations tab), or in one tenant's scope (a tenant's Users screen, for an operator of some tenants only).

/** Where invitations are listed and sent: the application's (to any tenant), or one tenant's in its scope. */
export interface InvitationPlace {
  readonly appId: string;
  /** Null: the application's. */
  readonly tenant: NamedTenant | null;
}

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

interface AuditReference {
  readonly type: string;
  readonly id: string | null;
}

/** An invitation as the API answers it. */
export interface InvitationFields {
  readonly id: string;
  readonly email: string;
  readonly tenantId: string;
  readonly roleIds: readonly string[];
  readonly status: InvitationStatus;
  readonly expiresAt: string;
  /** The OAuth client the invitee is led to once they accept; null: none. */
  readonly clientId: string | null;
  readonly invitedBy: AuditReference;
}

/**
 * A role of an invitation whose name is not read: the API names roles only to `roles:read` (neither an invitation nor a
 * role assignment carries the name), which an operator of a tenant may lack, or the role is deleted since.
 */
export const UNNAMED_ROLE = 'Unnamed role';

/** An invitation with the names its ids stand for. */
export interface Invitation extends InvitationFields {
  readonly tenantName: string;
  /** In the order of `roleIds`; UNNAMED_ROLE where its name could not be read. */
  readonly roleNames: readonly string[];
  readonly inviter: string;
}

export interface InvitationRequest {
  readonly email: string;
  /** On the application's path; in a tenant's scope, left out (the scope decides it). */
  readonly tenantId?: string;
  readonly roleIds: readonly string[];
  readonly expiresInDays: number;
  /** Left out: the done page leads nowhere. */
  readonly clientId?: string;
}

/** A client an invitation to a tenant may lead to: the application's or the tenant's own, signing in from a browser. */
export interface LandingClient {
  readonly clientId: string;
  readonly name: string;
}

const INVITATION_FIELDS = `fragment InvitationFields on Invitation {
  id email tenantId roleIds status expiresAt clientId invitedBy { type id }
}`;

const PAGE_SIZE = 25;

const ACTOR_LABEL: Readonly<Record<string, string>> = { api_key: 'API key', m2m_credential: 'M2M credential', oauth_client: 'OAuth client', system: 'Gatehouse' };

/** Whose e-mail names who sent an invitation; other senders are named by their kind. */
const isInviterWithEmail = (type: string): type is 'operator' | 'user' => type === 'operator' || type === 'user';

/** An operator whose e-mail the signed-in one may not read: the API names console users to the console's readers only. */
const ANOTHER_OPERATOR = 'Another operator';

/**
 * Who sent it: an operator's or a user's e-mail, else the kind of credential. The signed-in operator is named by their
 * session, as one who may read no console users (of some tenants only) reads none; another operator unread is
 * "Another operator" (an id would tell the reader nothing), a user unread `user:{id}`.
 */
function inviterOf({ type, id }: AuditReference, nameOf: NameOf): string {
  if (!isInviterWithEmail(type)) return ACTOR_LABEL[type] ?? type;
  const session = getSession();
  const own = type === 'operator' && id !== null && id === session?.subject ? session.email : undefined;
  const unread = type === 'operator' ? ANOTHER_OPERATOR : `${type}:${id ?? ''}`;
  return (id === null ? undefined : nameOf(type, id)) ?? own ?? unread;
}

export async function listInvitations(place: InvitationPlace, status: InvitationStatus | null, cursor: string | null): Promise<Page<Invitation>> {
  const query = `query Invitations($appId: UUID!, $tenantId: UUID, $status: InvitationStatus, $pageSize: Int, $cursor: String) {
    invitations(appId: $appId, tenantId: $tenantId, status: $status, pageSize: $pageSize, cursor: $cursor) { data { ...InvitationFields } next }
  }
  ${INVITATION_FIELDS}`;
  const data = await callInScope<{ invitations: Page<InvitationFields> }>(query, scopeOf(place), { status, pageSize: PAGE_SIZE, cursor });
  const page = data.invitations.data;
  return { data: page.map(await namer(place, page)), next: data.invitations.next };
}

const scopeOf = ({ appId, tenant }: InvitationPlace) => scopeIn(appId, tenant);

/**
 * Names an invitation of `page` (its tenant, roles and sender), the names of them all read in one request; in a
 * tenant's scope, its roles are read there and the tenant is the one named.
 */
async function namer(place: InvitationPlace, page: readonly InvitationFields[]): Promise<(invitation: InvitationFields) => Invitation> {
  const { tenant } = place;
  const nameOf = await readNames(
    scopeOf(place),
    page.flatMap(({ tenantId, roleIds, invitedBy }): ItemReference[] => [
      ...(tenant === null ? [{ type: 'tenant' as const, id: tenantId }] : []),
      ...roleIds.map((id) => ({ type: 'role' as const, id })),
      ...(isInviterWithEmail(invitedBy.type) && invitedBy.id !== null ? [{ type: invitedBy.type, id: invitedBy.id }] : []),
    ]),
  );
  return (invitation) => ({
    ...invitation,
    tenantName: (invitation.tenantId === tenant?.id ? tenant.name : nameOf('tenant', invitation.tenantId)) ?? invitation.tenantId,
    roleNames: invitation.roleIds.map((roleId) => nameOf('role', roleId) ?? UNNAMED_ROLE),
    inviter: inviterOf(invitation.invitedBy, nameOf),
  });
}

/** Invites the address to the tenant and mails the link; the answer is named as the list names it. */
export async function sendInvitation(place: InvitationPlace, request: InvitationRequest): Promise<Invitation> {
  const mutation = `mutation SendInvitation($appId: UUID!, $tenantId: UUID, $input: SendInvitationInput!) {
    sendInvitation(appId: $appId, tenantId: $tenantId, input: $input) { ...InvitationFields }
  }
  ${INVITATION_FIELDS}`;
  const data = await callInScope<{ sendInvitation: InvitationFields }>(mutation, scopeOf(place), { input: request });
  const sent = data.sendInvitation;
  return (await namer(place, [sent]))(sent);
}

/**
 * The clients an invitation to the tenant may name (the API refuses the others: 422 `clientId`), every page: the
 * application's and the tenant's own; in the tenant's scope, the tenant's own alone (the scope lists no others).
 */
export async function listLandingClients(place: InvitationPlace, tenantId: string): Promise<readonly LandingClient[]> {
  const query = `query LandingClients($appId: UUID!, $tenantId: UUID, $pageSize: Int, $cursor: String) {
    oauthClients(appId: $appId, tenantId: $tenantId, pageSize: $pageSize, cursor: $cursor) { data { clientId name tenantId redirectUris } next }
  }`;
  type Row = LandingClient & { readonly tenantId: string | null; readonly redirectUris: readonly string[] };
  const clients = await readAllPages(async (cursor) => {
    const data = await callInScope<{ oauthClients: Page<Row> }>(query, scopeOf(place), { pageSize: FULL_PAGE, cursor });
    return data.oauthClients;
  });
  return clients.filter((client) => client.redirectUris.length > 0 && (client.tenantId === null || client.tenantId === tenantId)).map(({ clientId, name }) => ({ clientId, name }));
}

/** Mails a new link (the previous one stops working); an expired invitation is pending again. */
export async function resendInvitation(place: InvitationPlace, invitationId: string): Promise<InvitationFields> {
  const mutation = `mutation ResendInvitation($appId: UUID!, $tenantId: UUID, $invitationId: UUID!) {
    resendInvitation(appId: $appId, tenantId: $tenantId, invitationId: $invitationId) { ...InvitationFields }
  }
  ${INVITATION_FIELDS}`;
  const data = await callInScope<{ resendInvitation: InvitationFields }>(mutation, scopeOf(place), { invitationId });
  return data.resendInvitation;
}

export async function revokeInvitation(place: InvitationPlace, invitationId: string): Promise<InvitationFields> {
  const mutation = `mutation RevokeInvitation($appId: UUID!, $tenantId: UUID, $invitationId: UUID!) {
    revokeInvitation(appId: $appId, tenantId: $tenantId, invitationId: $invitationId) { ...InvitationFields }
  }
  ${INVITATION_FIELDS}`;
  const data = await callInScope<{ revokeInvitation: InvitationFields }>(mutation, scopeOf(place), { invitationId });
  return data.revokeInvitation;
}
