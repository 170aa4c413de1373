import { useState } from 'react';

/** A form's choices from a list read again on return: one no longer offered stays chosen, for the server to judge. */
export function useKeptChoices<T>(keyOf: (item: T) => string) {
  const [picked, setPicked] = useState<ReadonlyMap<string, T>>(new Map());
  return {
    pick(offered: readonly T[], key: string): void {
      const item = offered.find((candidate) => keyOf(candidate) === key);
      if (item !== undefined) setPicked((current) => new Map(current).set(key, item));
    },
    /** The items of `chosen` that `offered` lacks, as they were offered when chosen. */
    gone(offered: readonly T[], chosen: readonly string[]): T[] {
      const offeredKeys = new Set(offered.map(keyOf));
      return chosen.filter((key) => !offeredKeys.has(key)).flatMap((key) => picked.get(key) ?? []);
    },
  };
}
