import { graphql, refusedByConsole } from './api.ts';
import type { Page } from './operations.ts';
import { readNames } from './operations-names.ts';
import { assignRole, listRoleAssignments, type RoleGrant } from './operations-roles.ts';

// The Operators tab's calls. Console calls go without an application (they act on the console, whose users are the
// operators); the rest act on the managed application, with its header.

export interface OperatorAssignment extends RoleGrant {
  readonly id: string;
  readonly operatorId: string;
  /** Null when the operator's e-mail could not be read. */
  readonly email: string | null;
}

interface ConsoleUser {
  readonly id: string;
  readonly email: string;
}

export async function listOperatorAssignments(appId: string, cursor: string | null): Promise<Page<OperatorAssignment>> {
  const assignments = await listRoleAssignments({ appId, tenantId: null }, { subjectType: 'operator' }, cursor);
  // The application gives its admins their co-operators' addresses; the console's users list, its own administrators the rest.
  const unnamed = assignments.data.filter(({ subject }) => subject.email == null);
  const nameOf = await readNames(appId, unnamed.map(({ subject }) => ({ type: 'operator' as const, id: subject.id })));
  const data = assignments.data.map(({ id, subject, roleId, tenantId }) => ({ id, operatorId: subject.id, email: subject.email ?? nameOf('operator', subject.id) ?? null, roleId, tenantId }));
  return { data, next: assignments.next };
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

/** A refused assignment leaves a new console account behind, without roles: the next attempt finds it. */
export async function addOperator(appId: string, email: string, grant: RoleGrant): Promise<OperatorAssignment> {
  const operator = await refusedByConsole(
    "Adding an operator takes an administrator of the organization's console, where the operators' accounts are kept.",
    async () => (await findConsoleUser(email)) ?? (await createConsoleUser(email)),
  );
  const { id, roleId, tenantId } = await assignRole({ appId, tenantId: null }, { type: 'operator', id: operator.id }, grant);
  return { id, operatorId: operator.id, email: operator.email, roleId, tenantId };
}
