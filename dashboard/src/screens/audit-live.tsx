import { useEffect, useState } from 'react';
import { ErrorMessage } from '../components/status.tsx';
import { followAuditRecords, type AuditFilter, type NamedAuditRecord } from '../operations-audit.ts';

interface AuditLiveProps {
  appId: string;
  filter: AuditFilter;
  /** The newest record shown when following starts (null: none), so that none is missed or shown twice. */
  newest: string | null;
  onRecord: (record: NamedAuditRecord) => void;
}

/** While mounted, the records the search matches arrive as they commit; says so, or why the stream stopped. */
export function AuditLive({ appId, filter, newest, onRecord }: AuditLiveProps) {
  const [after] = useState(newest);
  const [ended, setEnded] = useState<string | null>(null);
  useEffect(() => followAuditRecords(appId, filter, after, onRecord, setEnded), [appId, filter, after, onRecord]);
  return ended === null ? <p role="status">Following live: new records appear at the top.</p> : <ErrorMessage message={ended} />;
}
