import { raw, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import type { Scope } from '../../context.ts';
import { Tenant } from '../../db/entities/index.ts';
import { likePrefix } from '../../db/like-prefix.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';
import { changed } from '../../events/changes.ts';
import { grantsEnded } from '../../events/invalidations.ts';
import { newId } from '../../ids.ts';
import { recordAudit } from '../audit/audit.ts';
import { configurationChanged } from '../tenancy/changed.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import { authorizationChanged } from '../authorization/writes.ts';
import { removeMemberships, removePoolUsers } from '../users/users.ts';
import { endLinksOfTenantOutbox } from '../users/link-tokens.ts';
import { uniquely } from '../db-errors.ts';
import { paginate, type Page, type PageArgs, type Row, scopedList } from '../pagination.ts';
import { endSurfaceSignIns } from '../sessions/end-sessions.ts';
import { grantHoldersCutoffs } from '../sessions/policy-cutoffs.ts';
import { removeTenantOwnedRows } from './owned-rows.ts';
import { DISPLAY_NAME_MAX, displayName, isControlFree, slug, SLUG_MAX_LENGTH, slugFromName } from '../validate.ts';

export interface CreateTenantInput {
  name: string;
  slug?: string | null;
}

export interface UpdateTenantInput {
  name?: string | null;
  slug?: string | null;
}

const snapshot = (tenant: Tenant) => ({ name: tenant.name, slug: tenant.slug });

export type TenantRow = Row<Tenant>;

export interface TenantFilter {
  search?: string | null;
}

/** A name is at most this long: a longer search matches none. */
const SEARCH_MAX = DISPLAY_NAME_MAX;

/** Name (any case, as Zitadel's STARTS_WITH_IGNORE_CASE) or slug starting with `search`, for a picker. A cursor names the
 *  search it was issued for. */
function searchCondition(search: string): object {
  const length = search.length > 2 * SEARCH_MAX ? Infinity : [...search].length;
  if (length > SEARCH_MAX || search.trim() === '' || !isControlFree(search)) {
    throw invalid('search', `search must be 1 to ${SEARCH_MAX} characters, not only spaces, without control characters`);
  }
  const prefix = likePrefix(search.normalize('NFC'));
  // Names are kept as given: one typed with combining accents is found by the precomposed letters, and back.
  const name = raw((alias: string) => `normalize(${alias}.name, NFC) ilike ?`, [prefix]);
  return { $or: [{ [name]: [] }, { slug: { $like: prefix.toLowerCase() } }] };
}

export async function listTenants(scope: Scope, { search, ...page }: PageArgs & TenantFilter): Promise<Page<TenantRow>> {
  const list = `${scopedList(scope, 'tenants')}:${JSON.stringify([search ?? null])}`;
  return paginate(scope.em, Tenant, search == null ? {} : searchCondition(search), page, scope.services.cursors, list);
}

/** The scope was settled on it, so it is reachable; or 404. */
export async function getTenant(scope: Scope, tenantId: string): Promise<Tenant> {
  const tenant = await scope.em.findOne(Tenant, { id: tenantId });
  if (tenant === null) throw notFound('Tenant', 'tenantId');
  return tenant;
}

/** `base`, then `base-2`, `base-3`… (as GitHub and Slack number a taken name), `base` shortened to leave room; never
 *  UUID-shaped (its last group would be the suffix's digits). */
function slugCandidate(base: string, n: number): string {
  if (n === 1) return base;
  const suffix = `-${n}`;
  return `${base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`;
}

const SUFFIX_DIGITS = 6;

async function freeSlug(em: EntityManager, base: string): Promise<string> {
  const suffixed = Array.from({ length: SUFFIX_DIGITS }, (_, index) => {
    const digits = index + 1;
    return `${base.slice(0, SLUG_MAX_LENGTH - digits - 1).replace(/-+$/, '')}-[0-9]{${digits}}`;
  });
  // Slugs hold only [a-z0-9-]: nothing in them is special to a regular expression.
  const pattern = `^(${[base, ...new Set(suffixed)].join('|')})$`;
  const rows = await em.find(Tenant, { slug: { $re: pattern } }, { fields: ['slug'], disableIdentityMap: true });
  const taken = new Set(rows.map((row) => row.slug));
  let n = 1;
  while (taken.has(slugCandidate(base, n))) n += 1;
  return slugCandidate(base, n);
}

/** Each lost attempt is another creation that committed the slug meanwhile; past them the client is asked for a slug. */
const DERIVED_SLUG_ATTEMPTS = 10;

export async function createTenant(scope: Scope, input: CreateTenantInput): Promise<Tenant> {
  const application = await scope.application();
  if (!application.multiTenant) throw invalid('appId', 'A single-tenant application has no tenants');
  const name = displayName('name', input.name);
  const insert = (tenantSlug: string) =>
    scope.transactional(async (em) => {
      const tenant = em.create(Tenant, { applicationId: scope.applicationId, id: newId(), name, slug: tenantSlug });
      recordAudit(em, scope, { action: 'tenant.created', targetType: 'tenant', targetId: tenant.id, tenantId: tenant.id, after: snapshot(tenant) });
      return tenant;
    });
  // A slug the client sent is theirs: taken, it is their conflict (409 on `slug`).
  if (input.slug != null) {
    const sent = slug('slug', input.slug);
    return uniquely('slug', 'A tenant with this slug', () => insert(sent));
  }
  // A derived one is ours to make unique: the client sent no slug to be told about.
  const base = slugFromName(name);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await insert(await freeSlug(scope.em, base));
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      if (attempt === DERIVED_SLUG_ATTEMPTS) {
        throw new GatehouseError('already_exists', 'Tenants of this name are being created at the same time: send a slug, or retry', { field: 'name' });
      }
    }
  }
}

export async function updateTenant(scope: Scope, tenantId: string, input: UpdateTenantInput): Promise<Tenant> {
  const cutoffs = input.slug == null ? {} : await grantHoldersCutoffs(scope, scope.em, new Date());
  return uniquely('slug', 'A tenant with this slug', () =>
    scope.transactional(async (em) => {
      // Held as committed: two changes at once each record what the other left as their `before`, and a change behind
      // the tenant's deletion finds it gone (404) rather than recording a change of a deleted tenant.
      const tenant = await em.findOne(Tenant, { id: tenantId }, HOLD_FOR_UPDATE);
      if (tenant === null) throw notFound('Tenant', 'tenantId');
      const before = snapshot(tenant);
      if (input.name === null) throw invalid('name', 'name may not be null');
      if (input.slug === null) throw invalid('slug', 'slug may not be null');
      if (input.name !== undefined) tenant.name = displayName('name', input.name);
      if (input.slug !== undefined) tenant.slug = slug('slug', input.slug);
      recordAudit(em, scope, { action: 'tenant.updated', targetType: 'tenant', targetId: tenant.id, tenantId: tenant.id, before, after: snapshot(tenant) });
      // The old slug's path surface is gone: what was signed in there ends, or naming it again would revive it.
      if (tenant.slug !== before.slug) {
        changed(em, ...grantsEnded(await endSurfaceSignIns(em, scope, { exactly: scope.services.surfaces.tenantPathIssuer(before.slug) }, 'slug_changed', cutoffs)));
      }
      configurationChanged(em, scope.applicationId, tenant.id);
      return tenant;
    }),
  );
}

/** Everything the tenant owns goes, each audited as its own deletion; its isolated pool's users are deleted, shared-pool
 *  users lose their membership. A constant number of statements. */
export async function deleteTenant(scope: Scope, tenantId: string): Promise<boolean> {
  const cutoffs = await grantHoldersCutoffs(scope, scope.em, new Date());
  // Which users are the tenant's own depends on the pools, which only the switches change.
  await underTenancyConfig(scope, async (tx) => {
    // FOR UPDATE before its users are read: a user joining it (lockTenants) commits first, or finds it gone.
    const tenant = await tx.em.findOne(Tenant, { id: tenantId }, HOLD_FOR_UPDATE);
    if (tenant === null) throw notFound('Tenant', 'tenantId');
    await removeTenantOwnedRows(tx.em, tx, tenant.id, cutoffs);
    await removePoolUsers(tx.em, tx, tenant.id);
    await removeMemberships(tx.em, tx, tenant.id);
    await endLinksOfTenantOutbox(tx.em, tx.applicationId, tenant.id);
    recordAudit(tx.em, tx, { action: 'tenant.deleted', targetType: 'tenant', targetId: tenant.id, tenantId: tenant.id, before: snapshot(tenant) });
    tx.em.remove(tenant);
    // Its API keys and roles went with it (cascade).
    changed(tx.em, { kind: 'tenant', id: tenant.id });
    authorizationChanged(tx.em, scope.applicationId);
  });
  return true;
}
