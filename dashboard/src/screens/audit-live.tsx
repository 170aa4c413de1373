import { useEffect, useRef, useState } from 'react';
import { ErrorMessage } from '../components/status.tsx';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { followAuditRecords, type AuditFilter, type NamedAuditRecord } from '../operations-audit.ts';
import type { SettingsScope } from '../operations.ts';

interface AuditLiveProps {
  place: SettingsScope;
  filter: AuditFilter;
  /** The newest record shown (null: none): a stream starts after it, so that none is missed or shown twice. */
  newest: string | null;
  onRecord: (record: NamedAuditRecord) => void;
}

/** Records matching the search arrive as they commit (an expired access token is renewed on the way: `subscribe`). A
 *  failed stream starts again when the operator comes back, after the newest record shown; one the server completed
 *  (range's end reached) has nothing more to bring. */
export function AuditLive({ place, filter, newest, onRecord }: AuditLiveProps) {
  // A new object per start, so that a start after the same record still opens a new stream.
  const [start, setStart] = useState(() => ({ after: newest }));
  const [ended, setEnded] = useState<{ readonly message: string; readonly failed: boolean } | null>(null);
  const latest = useRef(newest);
  useEffect(() => {
    latest.current = newest;
  });
  useEffect(() => followAuditRecords(place, filter, start.after, onRecord, (message, failed) => setEnded({ message, failed })), [place, filter, start, onRecord]);
  const restart = {
    loading: false,
    refresh: () => {
      setEnded(null);
      setStart({ after: latest.current });
    },
  };
  useReadOnReturn(restart, ended?.failed === true);
  return ended === null ? <p role="status">Following live: new records appear at the top.</p> : <ErrorMessage message={ended.message} />;
}
