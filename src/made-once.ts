interface Keeping<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/** The value `kept` holds at `key`, made by `make` the first time it is asked for. */
export function madeOnce<K, V>(kept: Keeping<K, V>, key: K, make: () => V): V {
  let value = kept.get(key);
  if (value === undefined) kept.set(key, (value = make()));
  return value;
}
