import { ApiError, graphql } from './api.ts';
import type { SettingsScope } from './operations.ts';

// Ids of each type read through that type's list (`ids`), every type an alias of one query: one request per scope per
// page; an id the list leaves out (deleted since) is not named.

const IDS_PER_FIELD = 100;
/** The most root fields (aliases counted) the server runs in one query: OPERATION_LIMITS.queryRootFields. */
const FIELDS_PER_REQUEST = 20;

interface Item {
  readonly list: string;
  readonly name: string;
  /** A user of the console, read without the application header (as the operator themself). */
  readonly console?: true;
  /** A list without a tenant's scope (`tenants`): read on the application's path alone. */
  readonly unscoped?: true;
}

const ITEMS = {
  user: { list: 'users', name: 'email' },
  operator: { list: 'users', name: 'email', console: true },
  tenant: { list: 'tenants', name: 'name', unscoped: true },
  role: { list: 'roles', name: 'name' },
  oauth_client: { list: 'oauthClients', name: 'name' },
  api_key: { list: 'apiKeys', name: 'name' },
  m2m_credential: { list: 'm2mCredentials', name: 'name' },
  api_resource: { list: 'apiResources', name: 'name' },
  permission: { list: 'permissions', name: 'key' },
  invitation: { list: 'invitations', name: 'email' },
} as const satisfies Readonly<Record<string, Item>>;

/** A type of item with a name to show (as audit records and invitations spell it). */
export type ItemType = keyof typeof ITEMS;

export interface ItemReference {
  readonly type: ItemType;
  readonly id: string;
}

export const isItemType = (type: string): type is ItemType => Object.hasOwn(ITEMS, type);

/** The field that names an item of `type` in its list, and so in the snapshots its audit records hold. */
export const nameFieldOf = (type: ItemType): string => ITEMS[type].name;

/** The name read for an item; undefined when it could not be read (the item is gone since) or was not asked for. */
export type NameOf = (type: string, id: string) => string | undefined;

const keyOf = ({ type, id }: { readonly type: string; readonly id: string }) => `${type}:${id}`;

interface NamesField {
  readonly type: ItemType;
  readonly ids: readonly string[];
}

/** The names of the items referenced, each distinct one read once; the console's users and the application's apart. */
export async function readNames(where: string | SettingsScope, references: Iterable<ItemReference>): Promise<NameOf> {
  // A tenant's scope (an operator of some tenants only) reads the application's items through its lists there.
  const scope = typeof where === 'string' ? { appId: where, tenantId: null } : where;
  const distinct = [...new Map([...references].map((reference) => [keyOf(reference), reference])).values()];
  const requests = [true, false].flatMap((ofConsole) => {
    const fields = fieldsOf(distinct.filter((reference) => ((ITEMS[reference.type] as Item).console === true) === ofConsole));
    return chunked(fields, FIELDS_PER_REQUEST).map((batch) => readBatch(ofConsole ? null : scope, batch));
  });
  const names = new Map((await Promise.all(requests)).flat());
  return (type, id) => names.get(keyOf({ type, id }));
}

function fieldsOf(references: readonly ItemReference[]): NamesField[] {
  const idsByType = Map.groupBy(references, ({ type }) => type);
  return [...idsByType].flatMap(([type, ofType]) => chunked(ofType.map(({ id }) => id), IDS_PER_FIELD).map((ids) => ({ type, ids })));
}

function chunked<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, at) => items.slice(at * size, (at + 1) * size));
}

function namesQuery(fields: readonly NamesField[], withApp: boolean): string {
  const variables = fields.map((_, at) => `$i${at}: [UUID!]`);
  const selections = fields.map(({ type, ids }, at) => {
    const item: Item = ITEMS[type];
    const scope = withApp ? `appId: $appId, ${item.unscoped === true ? '' : 'tenantId: $tenantId, '}` : '';
    return `n${at}: ${item.list}(${scope}ids: $i${at}, pageSize: ${ids.length}) { data { id name: ${item.name} } }`;
  });
  // A variable declared must be used: `$tenantId` only where some list takes it.
  const scoped = fields.some(({ type }) => (ITEMS[type] as Item).unscoped !== true);
  const declared = withApp ? ['$appId: UUID!', ...(scoped ? ['$tenantId: UUID'] : []), ...variables] : variables;
  return `query ItemNames(${declared.join(', ')}) { ${selections.join(' ')} }`;
}

/** The server refuses a whole request for one list the operator may not read (an auditor without `api_keys:read`): a
 *  refused batch is read again list by list, so that the lists they may read still name their items. */
async function readBatch(scope: SettingsScope | null, fields: readonly NamesField[]): Promise<[string, string][]> {
  try {
    return await readFields(scope, fields);
  } catch (error) {
    if (fields.length === 1 || !(error instanceof ApiError && error.code === 'forbidden')) return [];
    return (await Promise.all(fields.map((field) => readFields(scope, [field]).catch(() => [])))).flat();
  }
}

/** The names of the items the fields' lists hold, by key; a refused request names none. */
async function readFields(scope: SettingsScope | null, fields: readonly NamesField[]): Promise<[string, string][]> {
  const ids = Object.fromEntries(fields.map((field, at) => [`i${at}`, field.ids]));
  const [variables, header] = scope === null ? [ids, {}] : [{ ...scope, ...ids }, { applicationId: scope.appId }];
  const data = await graphql<Record<string, { data: { id: string; name: string }[] }>>(namesQuery(fields, scope !== null), variables, header);
  return fields.flatMap(({ type }, at) => (data[`n${at}`]?.data ?? []).map(({ id, name }): [string, string] => [keyOf({ type, id }), name]));
}
