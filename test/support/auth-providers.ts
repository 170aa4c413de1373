import { expect } from 'vitest';
import type { HttpClient } from './http.ts';

/** The id of the password provider every application starts with, from the scope's list at `path`. */
export async function passwordProviderId(http: HttpClient, path = '/auth-providers'): Promise<string> {
  const list = await http.get(path);
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  const password = (list.body.data as { id: string; type: string }[]).find((provider) => provider.type === 'password');
  expect(password, JSON.stringify(list.body)).toBeDefined();
  return password!.id;
}

/** Sets the scope's password provider's `config` (PATCH merges it), as a test's surface needs it. */
export async function configurePassword(http: HttpClient, config: Record<string, unknown>, path = '/auth-providers'): Promise<string> {
  const id = await passwordProviderId(http, path);
  const patched = await http.patch(`${path}/${id}`, { config });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  return id;
}
