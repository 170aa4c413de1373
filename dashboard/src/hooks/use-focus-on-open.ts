import { useCallback } from 'react';

/** For the heading of a panel opened by a button: scrolled to the top and focused as it opens; closing with focus inside,
 *  focus goes back to the button, if still there. */
export function useFocusOnOpen(): (heading: HTMLElement | null) => (() => void) | undefined {
  return useCallback((heading: HTMLElement | null) => {
    if (heading === null) return undefined;
    const opener = document.activeElement;
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
    const panel = heading.parentElement ?? heading;
    return () => {
      // Another panel opened meanwhile holds focus by now: leave it there.
      if (panel.contains(document.activeElement) && opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);
}
