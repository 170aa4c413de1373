import { expect } from 'vitest';
import type { HttpClient } from './http.ts';

/** The password the hosted-page suites' users sign in with. */
export const PASSWORD = 'Correct-Horse-9';

/**
 * Creates a user of `body` through `http` at `path` (the application's `/users`, or a tenant's
 * `/applications/…/tenants/…/users`); asserts the 201 and returns the user's id.
 */
export async function createUserThrough(http: HttpClient, body: Record<string, unknown>, path = '/users'): Promise<string> {
  const created = await http.post(path, body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

/** createUserThrough for a user of `email` with PASSWORD, and `fields` besides. */
export function createPasswordUser(http: HttpClient, email: string, path = '/users', fields: Record<string, unknown> = {}): Promise<string> {
  return createUserThrough(http, { email, password: PASSWORD, ...fields }, path);
}
