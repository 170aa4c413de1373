import type { TestApp } from '../support/app.ts';

/**
 * The victim's side of the isolation suite: an application with two tenants and one resource of each kind in
 * tenant `a`, so that every path parameter of the route table has a real value to aim foreign credentials at.
 */
export interface Victim {
  readonly params: Readonly<Record<string, string>>;
  /** A request body per operation that would succeed for the victim's own credentials. */
  readonly bodies: Readonly<Record<string, unknown>>;
}

export async function seedVictim(app: TestApp): Promise<Victim> {
  const appId = app.root.applicationId;
  const tenant = async (name: string) => (await app.http.post(`/applications/${appId}/tenants`, { name })).body.id as string;
  const tenantA = await tenant('Victim A');
  await tenant('Victim B');
  return {
    params: { appId, orgId: app.root.organizationId, tenantId: tenantA },
    bodies: {
      CreateApplication: { name: 'Intruder app' },
      UpdateApplication: { name: 'Intruded' },
      CreateTenant: { name: 'Intruder tenant' },
      UpdateTenant: { name: 'Intruded' },
    },
  };
}
