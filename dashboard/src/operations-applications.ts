import { graphql, refusedByConsole } from './api.ts';
import { listManagedApplications, type ManagedApplication } from './operations.ts';

// An application's own settings and figures, asked on its behalf; its creation without an application header: the
// operator acts on the console then, as on the Organization page, and is made the new application's app_admin when they
// hold all of it.

export interface ApplicationSettings extends ManagedApplication {
  readonly auditRetentionDays: number;
}

export interface ApplicationSettingsInput {
  readonly name: string;
  /** Sent as typed (NaN for no number): the server alone judges the range. */
  readonly auditRetentionDays: number;
}

export interface ApplicationStats {
  readonly users: number;
  readonly tenants: number;
  readonly activeUsers: { readonly day: number; readonly week: number; readonly month: number };
  readonly signIns: { readonly succeeded: number; readonly failed: number };
  readonly computedAt: string;
}

/** A new application, and the secret of its initial API key, which the server hands out this once. */
export interface CreatedApplication {
  readonly application: ManagedApplication;
  readonly initialKeySecret: string | null;
  /** Whether the operator was made its Application admin: only one holding all of `app_admin` is. */
  readonly managed: boolean;
}

const SETTINGS_FIELDS = 'id name multiTenant auditRetentionDays';

export async function createApplication(name: string, multiTenant: boolean): Promise<CreatedApplication> {
  const mutation = `mutation CreateApplication($input: CreateApplicationInput!) {
    createApplication(input: $input) { id name multiTenant initialApiKey { secret } }
  }`;
  const data = await refusedByConsole("Applications are created in the organization's console, which lets you create none.", () =>
    graphql<{ createApplication: ManagedApplication & { initialApiKey: { secret: string } | null } }>(mutation, { input: { name, multiTenant } }),
  );
  const { initialApiKey, ...application } = data.createApplication;
  const managed = (await listManagedApplications()).applications.some((other) => other.id === application.id);
  return { application, initialKeySecret: initialApiKey?.secret ?? null, managed };
}

export async function getApplicationSettings(appId: string): Promise<ApplicationSettings> {
  const query = `query ApplicationSettings($appId: UUID!) { application(appId: $appId) { ${SETTINGS_FIELDS} } }`;
  const data = await graphql<{ application: ApplicationSettings }>(query, { appId }, { applicationId: appId });
  return data.application;
}

export async function updateApplicationSettings(appId: string, input: ApplicationSettingsInput): Promise<ApplicationSettings> {
  const mutation = `mutation UpdateApplicationSettings($appId: UUID!, $input: UpdateApplicationInput!) {
    updateApplication(appId: $appId, input: $input) { ${SETTINGS_FIELDS} }
  }`;
  const data = await graphql<{ updateApplication: ApplicationSettings }>(mutation, { appId, input }, { applicationId: appId });
  return data.updateApplication;
}

/** The server keeps the figures a minute: reading them costs one statement at most. */
export async function getApplicationStats(appId: string): Promise<ApplicationStats> {
  const query = `query ApplicationStats($appId: UUID!) {
    applicationStats(appId: $appId) { users tenants activeUsers { day week month } signIns { succeeded failed } computedAt }
  }`;
  const data = await graphql<{ applicationStats: ApplicationStats }>(query, { appId }, { applicationId: appId });
  return data.applicationStats;
}

export async function deleteApplication(appId: string): Promise<void> {
  const mutation = 'mutation DeleteApplication($appId: UUID!) { deleteApplication(appId: $appId) }';
  await graphql<{ deleteApplication: boolean }>(mutation, { appId }, { applicationId: appId });
}
