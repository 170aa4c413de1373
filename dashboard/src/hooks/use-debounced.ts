import { useEffect, useState } from 'react';

/** `value` once it has stayed the same for `delayMs`: a search typed letter by letter is sent once the typing pauses. */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
