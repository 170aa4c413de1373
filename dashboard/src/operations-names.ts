import { graphqlPartial } from './api.ts';

// What a table shows for the ids a page's rows hold (a tenant's name, a user's e-mail): each distinct id an aliased
// field of one query, so that a page costs a request per ALIASES_PER_REQUEST ids, not one per id.

/** The most root fields (aliases counted) the server runs in one query: OPERATION_LIMITS.queryRootFields. */
const ALIASES_PER_REQUEST = 20;

interface Item {
  /** The query field reading one item by its id, and that argument's name. */
  readonly field: string;
  readonly idArgument: string;
  /** The item's field the table shows. */
  readonly name: string;
  /** A user of the console, read without the application header (as the operator themself). */
  readonly console?: true;
}

const ITEMS = {
  user: { field: 'user', idArgument: 'userId', name: 'email' },
  operator: { field: 'user', idArgument: 'userId', name: 'email', console: true },
  tenant: { field: 'tenant', idArgument: 'tenantId', name: 'name' },
  role: { field: 'role', idArgument: 'roleId', name: 'name' },
  oauth_client: { field: 'oauthClient', idArgument: 'clientId', name: 'name' },
  api_key: { field: 'apiKey', idArgument: 'keyId', name: 'name' },
  m2m_credential: { field: 'm2mCredential', idArgument: 'credentialId', name: 'name' },
} as const satisfies Readonly<Record<string, Item>>;

/** A type of item with a name to show (as audit records and invitations spell it). */
export type ItemType = keyof typeof ITEMS;

export interface ItemReference {
  readonly type: ItemType;
  readonly id: string;
}

export const isItemType = (type: string): type is ItemType => Object.hasOwn(ITEMS, type);

/** The name read for an item; undefined when it could not be read (the item is gone since) or was not asked for. */
export type NameOf = (type: string, id: string) => string | undefined;

const keyOf = ({ type, id }: { readonly type: string; readonly id: string }) => `${type}:${id}`;

/** The names of the items referenced, each distinct one read once; the console's users and the application's apart. */
export async function readNames(appId: string, references: Iterable<ItemReference>): Promise<NameOf> {
  const distinct = [...new Map([...references].map((reference) => [keyOf(reference), reference])).values()];
  const batches = [true, false].flatMap((ofConsole) => {
    const group = distinct.filter((reference) => ((ITEMS[reference.type] as Item).console === true) === ofConsole);
    return chunked(group, ALIASES_PER_REQUEST).map((batch) => readBatch(ofConsole ? null : appId, batch).catch(() => []));
  });
  const names = new Map((await Promise.all(batches)).flat());
  return (type, id) => names.get(keyOf({ type, id }));
}

function chunked<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, at) => items.slice(at * size, (at + 1) * size));
}

/** One query naming each reference as alias `n{index}`, its id in variable `$i{index}`; the application's if `appId`. */
function namesQuery(references: readonly ItemReference[], withApp: boolean): string {
  const variables = references.map((_, at) => `$i${at}: UUID!`);
  const fields = references.map(({ type }, at) => {
    const item: Item = ITEMS[type];
    return `n${at}: ${item.field}(${withApp ? 'appId: $appId, ' : ''}${item.idArgument}: $i${at}) { name: ${item.name} }`;
  });
  return `query ItemNames(${(withApp ? ['$appId: UUID!', ...variables] : variables).join(', ')}) { ${fields.join(' ')} }`;
}

/**
 * The names of a batch, by key. Every item field is non-null, so one item gone nulls the whole answer, whose error
 * names that alias only: it is left out (its row shows the id), and the rest asked again in two halves at once, since
 * a page of deletions would otherwise take a round per item.
 */
async function readBatch(appId: string | null, references: readonly ItemReference[]): Promise<[string, string][]> {
  if (references.length === 0) return [];
  const ids = Object.fromEntries(references.map(({ id }, at) => [`i${at}`, id]));
  const [variables, scope] = appId === null ? [ids, {}] : [{ appId, ...ids }, { applicationId: appId }];
  const { data, errors } = await graphqlPartial<Record<string, { name: string } | null>>(namesQuery(references, appId !== null), variables, scope);
  if (data !== null) {
    return references.flatMap((reference, at): [string, string][] => {
      const item = data[`n${at}`];
      return item == null ? [] : [[keyOf(reference), item.name]];
    });
  }
  const failed = new Set(errors.map((error) => error.path?.[0]));
  const left = references.filter((_, at) => !failed.has(`n${at}`));
  // No alias named: the request itself was refused, and none of its names can be read.
  if (left.length === references.length) return [];
  const middle = Math.ceil(left.length / 2);
  return (await Promise.all([readBatch(appId, left.slice(0, middle)), readBatch(appId, left.slice(middle))])).flat();
}
