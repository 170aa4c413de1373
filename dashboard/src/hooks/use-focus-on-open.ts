import { useCallback } from 'react';

/**
 * A ref for the heading of a panel opened by a button: as it opens, the panel's heading is scrolled to the top of the
 * view and takes focus; as it closes with focus inside it, focus goes back to the button, if that is still there.
 */
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
