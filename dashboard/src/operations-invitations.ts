import { FULL_PAGE, readAllPages } from './all-pages.ts';
import { graphql } from './api.ts';
import type { Page } from './operations.ts';
import { readNames, type ItemReference, type NameOf } from './operations-names.ts';

// The Invitations tab's calls: invitations are to one tenant, sent on the application's path with its `tenantId`.

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

/** An invitation with the names its ids stand for. */
export interface Invitation extends InvitationFields {
  readonly tenantName: string;
  /** In the order of `roleIds`; a role's id where its name could not be read. */
  readonly roleNames: readonly string[];
  readonly inviter: string;
}

export interface InvitationRequest {
  readonly email: string;
  readonly tenantId: string;
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

/** Who sent it: an operator's or a user's e-mail (`type:id` when it could not be read), else the kind of credential. */
function inviterOf({ type, id }: AuditReference, nameOf: NameOf): string {
  if (!isInviterWithEmail(type)) return ACTOR_LABEL[type] ?? type;
  return (id === null ? undefined : nameOf(type, id)) ?? `${type}:${id ?? ''}`;
}

export async function listInvitations(appId: string, status: InvitationStatus | null, cursor: string | null): Promise<Page<Invitation>> {
  const query = `query Invitations($appId: UUID!, $status: InvitationStatus, $pageSize: Int, $cursor: String) {
    invitations(appId: $appId, status: $status, pageSize: $pageSize, cursor: $cursor) { data { ...InvitationFields } next }
  }
  ${INVITATION_FIELDS}`;
  const data = await graphql<{ invitations: Page<InvitationFields> }>(query, { appId, status, pageSize: PAGE_SIZE, cursor }, { applicationId: appId });
  const page = data.invitations.data;
  return { data: page.map(await namer(appId, page)), next: data.invitations.next };
}

/** Names an invitation of `page` (its tenant, roles and sender), the names of them all read in one request. */
async function namer(appId: string, page: readonly InvitationFields[]): Promise<(invitation: InvitationFields) => Invitation> {
  const nameOf = await readNames(
    appId,
    page.flatMap(({ tenantId, roleIds, invitedBy }): ItemReference[] => [
      { type: 'tenant', id: tenantId },
      ...roleIds.map((id) => ({ type: 'role' as const, id })),
      ...(isInviterWithEmail(invitedBy.type) && invitedBy.id !== null ? [{ type: invitedBy.type, id: invitedBy.id }] : []),
    ]),
  );
  return (invitation) => ({
    ...invitation,
    tenantName: nameOf('tenant', invitation.tenantId) ?? invitation.tenantId,
    roleNames: invitation.roleIds.map((roleId) => nameOf('role', roleId) ?? roleId),
    inviter: inviterOf(invitation.invitedBy, nameOf),
  });
}

/** Invites the address to the tenant and mails the link; the answer is named as the list names it. */
export async function sendInvitation(appId: string, request: InvitationRequest): Promise<Invitation> {
  const mutation = `mutation SendInvitation($appId: UUID!, $input: SendInvitationInput!) {
    sendInvitation(appId: $appId, input: $input) { ...InvitationFields }
  }
  ${INVITATION_FIELDS}`;
  const data = await graphql<{ sendInvitation: InvitationFields }>(mutation, { appId, input: request }, { applicationId: appId });
  const sent = data.sendInvitation;
  return (await namer(appId, [sent]))(sent);
}

/** The clients an invitation to the tenant may name (the API refuses the others: 422 `clientId`), every page. */
export async function listLandingClients(appId: string, tenantId: string): Promise<readonly LandingClient[]> {
  const query = `query LandingClients($appId: UUID!, $pageSize: Int, $cursor: String) {
    oauthClients(appId: $appId, pageSize: $pageSize, cursor: $cursor) { data { clientId name tenantId redirectUris } next }
  }`;
  type Row = LandingClient & { readonly tenantId: string | null; readonly redirectUris: readonly string[] };
  const clients = await readAllPages(async (cursor) => {
    const data = await graphql<{ oauthClients: Page<Row> }>(query, { appId, pageSize: FULL_PAGE, cursor }, { applicationId: appId });
    return data.oauthClients;
  });
  return clients.filter((client) => client.redirectUris.length > 0 && (client.tenantId === null || client.tenantId === tenantId)).map(({ clientId, name }) => ({ clientId, name }));
}

/** Mails a new link (the previous one stops working); an expired invitation is pending again. */
export async function resendInvitation(appId: string, invitationId: string): Promise<InvitationFields> {
  const mutation = `mutation ResendInvitation($appId: UUID!, $invitationId: UUID!) {
    resendInvitation(appId: $appId, invitationId: $invitationId) { ...InvitationFields }
  }
  ${INVITATION_FIELDS}`;
  const data = await graphql<{ resendInvitation: InvitationFields }>(mutation, { appId, invitationId }, { applicationId: appId });
  return data.resendInvitation;
}

export async function revokeInvitation(appId: string, invitationId: string): Promise<InvitationFields> {
  const mutation = `mutation RevokeInvitation($appId: UUID!, $invitationId: UUID!) {
    revokeInvitation(appId: $appId, invitationId: $invitationId) { ...InvitationFields }
  }
  ${INVITATION_FIELDS}`;
  const data = await graphql<{ revokeInvitation: InvitationFields }>(mutation, { appId, invitationId }, { applicationId: appId });
  return data.revokeInvitation;
}
