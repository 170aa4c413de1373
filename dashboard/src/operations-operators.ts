import { graphql } from './api.ts';
import type { Page, TenantSummary } from './operations.ts';

// The Operators tab's calls. Console calls go without an application (they act on the console, whose users are the
// operators); the rest act on the managed application, with its header.

/** The largest page the API gives: the roles, tenants and operators an application has, read in one page each. */
const FULL_PAGE = 100;

export interface AssignableRole {
  readonly id: string;
  readonly name: string;
}

export interface OperatorChoices {
  readonly multiTenant: boolean;
  /** The application-wide roles, the only ones assignable on the application's path. */
  readonly roles: readonly AssignableRole[];
  readonly tenants: readonly TenantSummary[];
}

export interface OperatorAssignment {
  readonly id: string;
  readonly operatorId: string;
  /** Null when the operator is not on the one page of console users read. */
  readonly email: string | null;
  readonly roleId: string;
  /** Null: application-wide. */
  readonly tenantId: string | null;
}

interface RoleAssignment {
  readonly id: string;
  readonly subject: { readonly type: string; readonly id: string };
  readonly roleId: string;
  readonly tenantId: string | null;
}

interface ConsoleUser {
  readonly id: string;
  readonly email: string;
}

export async function getOperatorChoices(appId: string): Promise<OperatorChoices> {
  const query = `query OperatorChoices($appId: UUID!, $pageSize: Int) {
    application(appId: $appId) { multiTenant }
    roles(appId: $appId, pageSize: $pageSize) { data { id name tenantId } }
  }`;
  const data = await graphql<{ application: { multiTenant: boolean }; roles: { data: (AssignableRole & { tenantId: string | null })[] } }>(
    query,
    { appId, pageSize: FULL_PAGE },
    { applicationId: appId },
  );
  const roles = data.roles.data.filter((role) => role.tenantId === null).map(({ id, name }) => ({ id, name }));
  const tenants = data.application.multiTenant ? await listTenantPage(appId) : [];
  return { multiTenant: data.application.multiTenant, roles, tenants };
}

async function listTenantPage(appId: string): Promise<readonly TenantSummary[]> {
  const query = `query OperatorTenants($appId: UUID!, $pageSize: Int) { tenants(appId: $appId, pageSize: $pageSize) { data { id name slug } } }`;
  const data = await graphql<{ tenants: { data: TenantSummary[] } }>(query, { appId, pageSize: FULL_PAGE }, { applicationId: appId });
  return data.tenants.data;
}

export async function listOperatorAssignments(appId: string, cursor: string | null): Promise<Page<OperatorAssignment>> {
  const [assignments, operators] = await Promise.all([readOperatorAssignments(appId, cursor), listConsoleUsers()]);
  const emails = new Map(operators.map((user) => [user.id, user.email]));
  const data = assignments.data.map(({ id, subject, roleId, tenantId }) => ({ id, operatorId: subject.id, email: emails.get(subject.id) ?? null, roleId, tenantId }));
  return { data, next: assignments.next };
}

async function readOperatorAssignments(appId: string, cursor: string | null): Promise<Page<RoleAssignment>> {
  const query = `query OperatorAssignments($appId: UUID!, $pageSize: Int, $cursor: String) {
    roleAssignments(appId: $appId, subjectType: operator, pageSize: $pageSize, cursor: $cursor) { data { id subject { type id } roleId tenantId } next }
  }`;
  const data = await graphql<{ roleAssignments: Page<RoleAssignment> }>(query, { appId, pageSize: FULL_PAGE, cursor }, { applicationId: appId });
  return data.roleAssignments;
}

async function listConsoleUsers(): Promise<readonly ConsoleUser[]> {
  const query = 'query ConsoleUsers($pageSize: Int) { users(pageSize: $pageSize) { data { id email } } }';
  const data = await graphql<{ users: { data: ConsoleUser[] } }>(query, { pageSize: FULL_PAGE });
  return data.users.data;
}

async function findConsoleUser(email: string): Promise<ConsoleUser | null> {
  const query = 'query ConsoleUserByEmail($email: String) { users(email: $email) { data { id email } } }';
  const data = await graphql<{ users: { data: ConsoleUser[] } }>(query, { email });
  return data.users.data[0] ?? null;
}

/** A new operator account, without a password: they set one through "Forgot your password?". */
async function createConsoleUser(email: string): Promise<ConsoleUser> {
  const mutation = 'mutation CreateOperator($input: CreateUserInput!) { createUser(input: $input) { id email } }';
  const data = await graphql<{ createUser: ConsoleUser }>(mutation, { input: { email } });
  return data.createUser;
}

export interface OperatorGrant {
  readonly email: string;
  readonly roleId: string;
  /** Null: application-wide. */
  readonly tenantId: string | null;
}

/** A refused assignment leaves a new console account behind, without roles: the next attempt finds it. */
export async function addOperator(appId: string, grant: OperatorGrant): Promise<void> {
  const operator = (await findConsoleUser(grant.email)) ?? (await createConsoleUser(grant.email));
  const mutation = `mutation AssignOperatorRole($appId: UUID!, $input: CreateRoleAssignmentInput!) {
    createRoleAssignment(appId: $appId, input: $input) { id }
  }`;
  const input = { subject: { type: 'operator', id: operator.id }, roleId: grant.roleId, tenantId: grant.tenantId };
  await graphql<{ createRoleAssignment: { id: string } }>(mutation, { appId, input }, { applicationId: appId });
}

export async function removeOperatorAssignment(appId: string, assignmentId: string): Promise<void> {
  const mutation = `mutation RemoveOperatorAssignment($appId: UUID!, $assignmentId: UUID!) {
    deleteRoleAssignment(appId: $appId, assignmentId: $assignmentId)
  }`;
  await graphql<{ deleteRoleAssignment: boolean }>(mutation, { appId, assignmentId }, { applicationId: appId });
}
