import { expect } from 'vitest';
import type { HttpClient } from './http.ts';

/** The password the hosted-page suites' users sign in with. */
export const PASSWORD = 'Correct-Horse-9';

/**
 * Creates a user with PASSWORD through `http` at `path` (the application's `/users`, or a tenant's
 * `/applications/…/tenants/…/users`), with `fields` besides; asserts the 201 and returns the user's id.
 */
export async function createPasswordUser(http: HttpClient, email: string, path = '/users', fields: Record<string, unknown> = {}): Promise<string> {
  const created = await http.post(path, { email, password: PASSWORD, ...fields });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}
