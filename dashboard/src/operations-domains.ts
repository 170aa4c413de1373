import { graphql } from './api.ts';
import type { Page } from './operations.ts';

// The Domains tab's calls (schema/domains.graphql): the application's domains, or with a tenant that tenant's own.

export interface DomainVerificationRecord {
  readonly type: string;
  readonly name: string;
  readonly value: string;
}

export interface Domain {
  readonly id: string;
  /** Null: the application's. */
  readonly tenantId: string | null;
  readonly hostname: string;
  readonly verified: boolean;
  readonly verifiedAt: string | null;
  /** Since when the daily re-checks find no record: a verified domain loses its verification 72 hours after it. */
  readonly failingSince: string | null;
  readonly verificationRecord: DomainVerificationRecord;
  readonly createdAt: string;
}

/** What a verification check answered: verified, or why not (the domain as it stands after it). */
export interface DomainVerification {
  readonly verified: boolean;
  readonly reason: string | null;
  readonly domain: Domain;
}

const PAGE_SIZE = 25;
const DOMAIN_FIELDS = 'id tenantId hostname verified verifiedAt failingSince verificationRecord { type name value } createdAt';

export async function listDomains(appId: string, tenantId: string | null, cursor: string | null): Promise<Page<Domain>> {
  const query = `query Domains($appId: UUID!, $tenantId: UUID, $pageSize: Int, $cursor: String) {
    domains(appId: $appId, tenantId: $tenantId, pageSize: $pageSize, cursor: $cursor) { data { ${DOMAIN_FIELDS} } next }
  }`;
  const data = await graphql<{ domains: Page<Domain> }>(query, { appId, tenantId, pageSize: PAGE_SIZE, cursor }, { applicationId: appId });
  return data.domains;
}

export async function createDomain(appId: string, tenantId: string | null, hostname: string): Promise<Domain> {
  const mutation = `mutation CreateDomain($appId: UUID!, $tenantId: UUID, $input: CreateDomainInput!) {
    createDomain(appId: $appId, tenantId: $tenantId, input: $input) { ${DOMAIN_FIELDS} }
  }`;
  const data = await graphql<{ createDomain: Domain }>(mutation, { appId, tenantId, input: { hostname } }, { applicationId: appId });
  return data.createDomain;
}

/** Looks the TXT record up now; not found is an answer (`verified: false` and the reason), not a refusal. */
export async function verifyDomain(appId: string, tenantId: string | null, domainId: string): Promise<DomainVerification> {
  const mutation = `mutation VerifyDomain($appId: UUID!, $tenantId: UUID, $domainId: UUID!) {
    verifyDomain(appId: $appId, tenantId: $tenantId, domainId: $domainId) { verified reason domain { ${DOMAIN_FIELDS} } }
  }`;
  const data = await graphql<{ verifyDomain: DomainVerification }>(mutation, { appId, tenantId, domainId }, { applicationId: appId });
  return data.verifyDomain;
}

export async function deleteDomain(appId: string, tenantId: string | null, domainId: string): Promise<void> {
  const mutation = 'mutation DeleteDomain($appId: UUID!, $tenantId: UUID, $domainId: UUID!) { deleteDomain(appId: $appId, tenantId: $tenantId, domainId: $domainId) }';
  await graphql<{ deleteDomain: boolean }>(mutation, { appId, tenantId, domainId }, { applicationId: appId });
}
