import type { MikroORM } from '@mikro-orm/postgresql';
import { executeOwned } from '../../db/owned-sql.ts';
import { isUuid } from '../../ids.ts';
import { hostnameProblem } from './hostname.ts';

/**
 * Sign-in surfaces: the places the OAuth provider answers, each an issuer of its own (docs/decisions.md, "Sign-in
 * surfaces"):
 * - the service's (`PUBLIC_URL`): every application; the `tenant` parameter names a tenant;
 * - a tenant's path (`{PUBLIC_URL}/t/{tenant id or slug}`): that tenant of an isolated application, looked up in the
 *   application of the client (a shared application has one surface: spec, tenancy rule 6);
 * - a verified custom domain (`{PUBLIC_URL's scheme}://{hostname}`): its application and, for a tenant's domain, that
 *   tenant.
 * Nothing here is cached: a deleted or un-verified domain stops serving with the next request, on every instance.
 */
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

/** What a surface decides of the tenant for a client (or a token) of one application. */
export type SurfaceTenant =
  /** Any tenant of the application, or none: the request names it. */
  | { readonly kind: 'open' }
  /** This tenant and no other. */
  | { readonly kind: 'fixed'; readonly tenantId: string }
  /** The surface does not serve this application (another application's domain, a tenant it does not have). */
  | { readonly kind: 'closed' };

/** The condition on `application` under which its tenants have surfaces of their own (paths). */
const ISOLATED = "application.multi_tenant and application.auth_isolation = 'isolated'";

/** Where the tenant path surfaces live under the service's own URL. */
export const TENANT_PATH_PREFIX = '/t';

/** A tenant's id or slug, as the path names it (lower-case: one issuer per tenant reference, never two spellings). */
const TENANT_REF = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Whether `ref` (lower-case) could name a tenant, by id or slug: anything else names none and is not looked up (a NUL
 * character, for one, would fail the statement).
 */
export const isTenantRef = (ref: string): boolean => TENANT_REF.test(ref);

/** The where-clause column for a tenant reference: its id (a UUIDv7) or its slug. */
export const tenantRefColumn = (ref: string): 'id' | 'slug' => (isUuid(ref) ? 'id' : 'slug');

export class SurfaceRouter {
  readonly service: Surface;
  private readonly orm: MikroORM;
  private readonly scheme: string;
  private readonly serviceHostname: string;

  constructor(orm: MikroORM, publicUrl: string) {
    this.orm = orm;
    const url = new URL(publicUrl);
    this.scheme = url.protocol;
    this.serviceHostname = url.hostname;
    this.service = { kind: 'service', issuer: publicUrl };
  }

  /**
   * The surface of a request's Host: a verified custom domain's, else the service's. Only the Host header counts (a
   * proxy in front must pass it through); a Host that is not a verified domain never becomes an issuer.
   */
  async forHost(host: string | undefined): Promise<Surface> {
    const name = hostnameOf(host);
    if (name === undefined || name === this.serviceHostname) return this.service;
    return (await this.verifiedDomain(name)) ?? this.service;
  }

  /**
   * A tenant's path surface, when some application with `authIsolation = isolated` has a tenant of that id or slug; the
   * client picks which. A shared application has one sign-in surface (spec, tenancy rule 6): its tenants have no path.
   */
  async forTenantPath(ref: string): Promise<Surface | null> {
    if (!isTenantRef(ref)) return null;
    const [row] = await this.connection.execute<unknown[]>(
      `select 1 from tenant join application on application.id = tenant.application_id
        where tenant.${tenantRefColumn(ref)} = ? and ${ISOLATED} limit 1`,
      [ref],
    );
    return row === undefined ? null : this.tenantPath(ref);
  }

  /**
   * The surface a request is on: its Host's, or under a tenant path (`/t/{ref}/…`: `tenantRef` is the route's
   * parameter) that tenant's, when the raw path starts with the mount path as written (not a percent-encoded spelling
   * of it). Null for a tenant path that is none (unknown, or under a custom domain).
   */
  async forRequest(host: string | undefined, tenantRef: string | undefined, rawUrl: string | undefined): Promise<Surface | null> {
    const byHost = await this.forHost(host);
    if (tenantRef === undefined) return byHost;
    if (byHost.kind !== 'service') return null;
    const surface = await this.forTenantPath(tenantRef);
    return surface?.kind === 'tenant_path' && rawUrl?.startsWith(`${surface.mountPath}/`) === true ? surface : null;
  }

  /** The surface a token's `iss` names, or null when it is none of ours. */
  async forIssuer(issuer: string): Promise<Surface | null> {
    if (issuer === this.service.issuer) return this.service;
    const pathPrefix = `${this.service.issuer}${TENANT_PATH_PREFIX}/`;
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
    if (issuer !== `${this.scheme}//${url.hostname}`) return null;
    return this.verifiedDomain(url.hostname);
  }

  /** What `surface` decides of the tenant for a client or token of `applicationId`. */
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

  /**
   * The id of the application's tenant that `ref` (an id, or a slug in any case) names, or null; with `isolated`, null
   * too unless the application's `authIsolation` is `isolated` (a tenant's own surface: spec, tenancy rules 6 and 7).
   */
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

  /**
   * Whether the surface serves a client (or a token) of this application and tenant: the application must be the
   * surface's, and a tenant-bound client's tenant (a token's `tenant_id`) the surface's tenant when it fixes one.
   */
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
    return { kind: 'domain', issuer: `${this.scheme}//${name}`, hostname: name, applicationId: row.application_id, tenantId: row.tenant_id };
  }
}

/** The hostname of a Host header when it could be a custom domain (a fully qualified name, no IP address). */
function hostnameOf(host: string | undefined): string | undefined {
  if (host === undefined || host === '' || host.startsWith('[')) return undefined;
  // Checked without throwing: most requests come by a Host that is no domain (an IP address, a local name).
  const name = host.replace(/:\d+$/, '').toLowerCase();
  return hostnameProblem(name) === undefined ? name : undefined;
}
