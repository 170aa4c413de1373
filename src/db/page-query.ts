import { raw, RawQueryFragment, type EntityClass, type EntityMetadata } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomInt, randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { APPLICATION_FILTER, TENANT_FILTER, type ApplicationFilterParams, type TenantFilterParams } from './owned.ts';

/** Ascending ids (oldest first: UUIDv7s sort by creation) or descending. */
export type PageOrder = 'oldest' | 'newest';

interface PageValues {
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly after: string | undefined;
  readonly ids?: readonly string[] | undefined;
  readonly limit: number;
  readonly order: PageOrder;
}

/** Stand-ins written into a page's SQL in place of the request's values, found again among the parameters: random for
 *  each process, so that no filter value a caller sends (an e-mail, a search) can hold one, nor equal the page size's. */
const STAND_IN = {
  applicationId: randomUUID(),
  tenantId: randomUUID(),
  after: randomUUID(),
  ids: randomUUID(),
  limit: randomInt(2 ** 40, 2 ** 47),
} as const;

interface CompiledPage {
  readonly meta: EntityMetadata<object>;
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** Shapes are few (a call site × cursor or not × ids or not × tenant scope or not × order); bounded all the same. */
const compiled = new LRUCache<string, CompiledPage>({ max: 1_000 });

function substitute(param: unknown, values: PageValues): unknown {
  if (param === STAND_IN.limit) return values.limit;
  if (Array.isArray(param)) return param.map((item) => substitute(item, values));
  if (typeof param !== 'string') return param;
  return param
    .replaceAll(STAND_IN.applicationId, values.applicationId)
    .replaceAll(STAND_IN.tenantId, values.tenantId ?? '')
    .replaceAll(STAND_IN.after, values.after ?? '')
    .replaceAll(STAND_IN.ids, values.ids?.join(',') ?? '');
}

/** One array parameter whatever the number of ids, so that every set of ids shares the compiled SQL. */
const idIn = (idList: string) => ({ [raw((alias: string) => `${alias}.id = any(string_to_array(?, ',')::uuid[])`, [idList])]: [] });

const mentions = (params: readonly unknown[], standIn: string): boolean =>
  params.some((param) => (Array.isArray(param) ? mentions(param, standIn) : typeof param === 'string' && param.includes(standIn)));

/** A page's SQL as the query builder writes it, tenancy filters applied, with stand-ins. Fails closed: SQL whose parameters
 *  lack the scope's application (and tenant, for a tenant-owned entity in a tenant scope) is refused, never cached. */
async function compile(em: EntityManager, entity: EntityClass<object>, where: object, values: PageValues): Promise<CompiledPage> {
  const meta = em.getMetadata().get(entity);
  const probe = em.fork();
  probe.setFilterParams(APPLICATION_FILTER, { id: STAND_IN.applicationId } satisfies ApplicationFilterParams);
  probe.setFilterParams(TENANT_FILTER, { id: values.tenantId === null ? null : STAND_IN.tenantId } satisfies TenantFilterParams);
  const newest = values.order === 'newest';
  const narrowing = [
    ...(values.after === undefined ? [] : [{ id: { [newest ? '$lt' : '$gt']: STAND_IN.after } }]),
    ...(values.ids === undefined ? [] : [idIn(STAND_IN.ids)]),
  ];
  const condition = narrowing.length === 0 ? where : { $and: [where, ...narrowing] };
  const query = probe
    .createQueryBuilder(entity)
    .select(meta.props.filter((prop) => prop.persist !== false).map((prop) => prop.name) as never)
    .where(condition)
    .orderBy({ id: newest ? 'desc' : 'asc' } as never)
    .limit(STAND_IN.limit);
  await query.applyFilters();
  const { sql, params } = query.toQuery();
  // An entity without the tenant filter (the application itself) is the same for every tenant of the scope.
  const tenantOwned = Object.hasOwn(meta.filters, TENANT_FILTER);
  if (!mentions(params, STAND_IN.applicationId) || (tenantOwned && values.tenantId !== null && !mentions(params, STAND_IN.tenantId))) {
    throw new Error(`${meta.className}: a page query does not carry its tenancy scope`);
  }
  return { meta, sql, params };
}

/** A condition as its compiled SQL's cache key: a raw fragment is a symbol key, which JSON leaves out, so by its SQL and
 *  parameters (two conditions differing only in one would otherwise share the SQL of the first). */
function conditionKey(where: object): string {
  return JSON.stringify(where, (_, value: unknown) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const fragments = Object.getOwnPropertySymbols(value).map((symbol) => {
      const fragment = RawQueryFragment.getKnownFragment(symbol);
      return fragment === undefined ? String(symbol) : [fragment.sql, fragment.params, (value as Record<symbol, unknown>)[symbol]];
    });
    return fragments.length === 0 ? value : { ...value, '[raw]': fragments };
  });
}

/** Plain data in id order; the SQL is compiled once per query shape and reused, since building it costs several times the
 *  round trip (docs/bench.md). */
export async function selectPage(
  em: EntityManager,
  entity: EntityClass<object>,
  where: object,
  page: { after: string | undefined; ids?: readonly string[] | undefined; limit: number; order?: PageOrder },
): Promise<Record<string, unknown>[]> {
  const values: PageValues = {
    applicationId: em.getFilterParams<ApplicationFilterParams>(APPLICATION_FILTER).id,
    tenantId: em.getFilterParams<TenantFilterParams>(TENANT_FILTER).id,
    ...page,
    order: page.order ?? 'oldest',
  };
  const key = [
    em.getMetadata().get(entity).className,
    conditionKey(where),
    values.after === undefined ? 0 : 1,
    values.ids === undefined ? 0 : 1,
    values.tenantId === null ? 0 : 1,
    values.order,
  ].join('|');
  let query = compiled.get(key);
  if (query === undefined) {
    query = await compile(em, entity, where, values);
    compiled.set(key, query);
  }
  // In `em`'s transaction when it has one: an answer read after a write of the same request transaction.
  const rows = await em.execute<Record<string, unknown>[]>(query.sql, query.params.map((param) => substitute(param, values)));
  const driver = em.getDriver();
  return rows.map((row) => driver.mapResult(row, query.meta) as Record<string, unknown>);
}
