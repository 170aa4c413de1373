import type { MikroORM } from '@mikro-orm/postgresql';
import { executeOwned } from '../../db/owned-sql.ts';
import { isUuid } from '../../ids.ts';
import { hostnameProblem } from './hostname.ts';

/** Sign-in surfaces, each its own issuer (docs/decisions.md, "Sign-in surfaces"): the service's, a tenant's path (isolated
 *  applications only: spec, tenancy rule 6), or a verified custom domain. Not cached: a deleted or un-verified domain
 *  stops serving with the next request, on every instance. */
export type Surface =
  | { readonly kind: 'service'; readonly issuer: string }
  | { readonly kind: 'tenant_path'; readonly issuer: string; readonly mountPath: string; readonly tenantRef: string }
  | {
      readonly kind: 'domain';
      readonly issuer: string;
      readonly hostname: string;
      readonly applicationId: string;
      readonly tenantId: string | null;
    };

export type SurfaceTenant =
  /** The request names the tenant, or none. */
  | { readonly kind: 'open' }
  | { readonly kind: 'fixed'; readonly tenantId: string }
  /** Another application's domain, or a tenant it does not have. */
  | { readonly kind: 'closed' };

/** Whether a token of `tenantId` (null: application-wide) stands on a surface: the service's and an application's domain
 *  serve each of its tenants, a tenant's path or domain that tenant only, another application's domain none. The issuer
 *  string is not enough: a slug or hostname may since have passed to another tenant. Every token check asks this. */
export const tokenStands = (decided: SurfaceTenant, tenantId: string | null): boolean =>
  decided.kind === 'open' || (decided.kind === 'fixed' && decided.tenantId === tenantId);

const ISOLATED = "application.multi_tenant and application.auth_isolation = 'isolated'";

export const TENANT_PATH_PREFIX = '/t';

/** The issuers of one surface (`exactly`), or of every surface whose issuer starts so (each tenant's path). */
export type Issuers = { readonly exactly: string } | { readonly startingWith: string };

/** Lower-case: one issuer per tenant reference, never two spellings. */
const TENANT_REF = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Anything else is not looked up (a NUL, for one, would fail the statement). */
export const isTenantRef = (ref: string): boolean => TENANT_REF.test(ref);

export const tenantRefColumn = (ref: string): 'id' | 'slug' => (isUuid(ref) ? 'id' : 'slug');

/** The port a scheme's origin leaves unsaid, which `URL.host` omits and a Host header may still name. */
export const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

export class SurfaceRouter {
  readonly service: Surface;
  private readonly orm: MikroORM;
  private readonly scheme: string;
  private readonly serviceHostname: string;
  private readonly defaultPort: string | undefined;

  constructor(orm: MikroORM, publicUrl: string) {
    this.orm = orm;
    const url = new URL(publicUrl);
    this.scheme = url.protocol;
    this.serviceHostname = url.hostname;
    this.defaultPort = DEFAULT_PORTS[url.protocol];
    this.service = { kind: 'service', issuer: publicUrl };
  }

  /** Only the Host header counts (a proxy must pass it through); an unverified Host never becomes an issuer. */
  async forHost(host: string | undefined): Promise<Surface> {
    const name = hostnameOf(host, this.defaultPort);
    if (name === undefined || name === this.serviceHostname) return this.service;
    return (await this.verifiedDomain(name)) ?? this.service;
  }

  /** The client picks which application. A shared application's tenants have no path (spec, tenancy rule 6). */
  async forTenantPath(ref: string): Promise<Surface | null> {
    if (!isTenantRef(ref)) return null;
    const [row] = await this.connection.execute<unknown[]>(
      `select 1 from tenant join application on application.id = tenant.application_id
        where tenant.${tenantRefColumn(ref)} = ? and ${ISOLATED} limit 1`,
      [ref],
    );
    return row === undefined ? null : this.tenantPath(ref);
  }

  /** A tenant path counts only when the raw path starts with the mount path as written (not percent-encoded). Null for a
   *  tenant path that is none (unknown, or under a custom domain). */
  async forRequest(host: string | undefined, tenantRef: string | undefined, rawUrl: string | undefined): Promise<Surface | null> {
    const byHost = await this.forHost(host);
    if (tenantRef === undefined) return byHost;
    if (byHost.kind !== 'service') return null;
    const surface = await this.forTenantPath(tenantRef);
    return surface?.kind === 'tenant_path' && rawUrl?.startsWith(`${surface.mountPath}/`) === true ? surface : null;
  }

  async forIssuer(issuer: string): Promise<Surface | null> {
    if (issuer === this.service.issuer) return this.service;
    const { startingWith: pathPrefix } = this.tenantPathIssuers();
    if (issuer.startsWith(pathPrefix)) {
      const ref = issuer.slice(pathPrefix.length);
      return isTenantRef(ref) ? this.tenantPath(ref) : null;
    }
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      return null;
    }
    if (issuer !== this.domainIssuer(url.hostname)) return null;
    return this.verifiedDomain(url.hostname);
  }

  async tenantFor(surface: Surface, applicationId: string): Promise<SurfaceTenant> {
    switch (surface.kind) {
      case 'service':
        return { kind: 'open' };
      case 'domain':
        if (surface.applicationId !== applicationId) return { kind: 'closed' };
        return surface.tenantId === null ? { kind: 'open' } : { kind: 'fixed', tenantId: surface.tenantId };
      case 'tenant_path': {
        const tenantId = await this.findTenantId(applicationId, surface.tenantRef, { isolated: true });
        return tenantId === null ? { kind: 'closed' } : { kind: 'fixed', tenantId };
      }
    }
  }

  /** `ref`: an id, or a slug in any case. `isolated`: null unless the application is (spec, tenancy rules 6, 7). */
  async findTenantId(applicationId: string, ref: string, { isolated = false }: { isolated?: boolean } = {}): Promise<string | null> {
    const name = ref.toLowerCase();
    if (!isUuid(applicationId) || !isTenantRef(name)) return null;
    const [row] = await executeOwned<{ id: string }[]>(
      this.connection,
      applicationId,
      isolated
        ? `select tenant.id from tenant join application on application.id = tenant.application_id
            where @owner(tenant) and tenant.${tenantRefColumn(name)} = ? and ${ISOLATED}`
        : `select id from tenant where @owner and ${tenantRefColumn(name)} = ?`,
      [name],
    );
    return row?.id ?? null;
  }

  /** The issuer of the path surface of tenant `ref` (an id or slug), whether or not it serves now. */
  tenantPathIssuer(ref: string): string {
    return this.tenantPath(ref).issuer;
  }

  /** The issuers of every tenant's path surface, of every application: no other surface's issuer has a path. */
  tenantPathIssuers(): { readonly startingWith: string } {
    return { startingWith: `${this.service.issuer}${TENANT_PATH_PREFIX}/` };
  }

  /** The issuer of a custom domain `hostname`, whether or not it serves now. */
  domainIssuer(hostname: string): string {
    return `${this.scheme}//${hostname}`;
  }

  async servesToken(surface: Surface, owner: { applicationId: string; tenantId: string | null }): Promise<boolean> {
    return tokenStands(await this.tenantFor(surface, owner.applicationId), owner.tenantId);
  }

  /** servesToken for the surface `issuer` names, which must still be one of ours (a deleted domain's is not). */
  async issuerServesToken(issuer: string, owner: { applicationId: string; tenantId: string | null }): Promise<boolean> {
    const surface = await this.forIssuer(issuer);
    return surface !== null && this.servesToken(surface, owner);
  }

  /** A tenant-bound client's tenant must be the surface's when it fixes one; an application-wide client is served there. */
  async admits(surface: Surface, owner: { applicationId: string; tenantId: string | null }): Promise<boolean> {
    const decided = await this.tenantFor(surface, owner.applicationId);
    if (decided.kind === 'closed') return false;
    return decided.kind === 'open' || owner.tenantId === null || owner.tenantId === decided.tenantId;
  }

  private get connection() {
    return this.orm.em.getConnection();
  }

  private tenantPath(ref: string): Surface {
    const mountPath = `${TENANT_PATH_PREFIX}/${ref}`;
    return { kind: 'tenant_path', issuer: `${this.service.issuer}${mountPath}`, mountPath, tenantRef: ref };
  }

  private async verifiedDomain(name: string): Promise<Surface | null> {
    // Across applications on purpose: verification lets one application only hold a verified hostname.
    const [row] = await this.connection.execute<{ application_id: string; tenant_id: string | null }[]>(
      'select application_id, tenant_id from domain where hostname = ? and verified_at is not null limit 1',
      [name],
    );
    if (row === undefined) return null;
    return { kind: 'domain', issuer: this.domainIssuer(name), hostname: name, applicationId: row.application_id, tenantId: row.tenant_id };
  }
}

/** A domain's issuer has no port: named with another than its scheme's default, the Host is another origin, not the domain. */
function hostnameOf(host: string | undefined, defaultPort: string | undefined): string | undefined {
  if (host === undefined || host === '' || host.startsWith('[')) return undefined;
  // Checked without throwing: most requests come by a Host that is no domain (an IP address, a local name).
  const lower = host.toLowerCase();
  const name = defaultPort !== undefined && lower.endsWith(`:${defaultPort}`) ? lower.slice(0, -defaultPort.length - 1) : lower;
  return hostnameProblem(name) === undefined ? name : undefined;
}
