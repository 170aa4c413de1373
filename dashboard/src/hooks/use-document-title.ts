import { useEffect } from 'react';

const DASHBOARD_TITLE = 'Gatehouse dashboard';

/** WCAG 2.4.2: `parts`, most specific first, then the dashboard's name (alone again once the page goes). */
export function useDocumentTitle(...parts: readonly string[]): void {
  const title = [...parts, DASHBOARD_TITLE].join(' · ');
  useEffect(() => {
    document.title = title;
    return () => {
      document.title = DASHBOARD_TITLE;
    };
  }, [title]);
}
