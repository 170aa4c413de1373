import { useId, useState } from 'react';
import { CopyableValue } from '../components/copyable-value.tsx';
import { useKnownNames } from '../components/known-names.tsx';
import { Timestamp } from '../components/timestamp.tsx';
import type { AuditRecord, AuditReference, NamedAuditRecord } from '../operations-audit.ts';

interface AuditRowProps {
  record: NamedAuditRecord;
  /** Whether the row has a Tenant cell. */
  multiTenant: boolean;
  /** The number of columns, which the expanded details span. */
  columns: number;
}

/** A reference's type and name: the one the page holds (an organization, an application), else the record's. */
function Reference({ reference, name }: { reference: AuditReference; name: string }) {
  const known = useKnownNames();
  const { type, id } = reference;
  return (
    <>
      <span className="reference-type">{type}</span> {(id === null ? undefined : known(type, id)) ?? name}
    </>
  );
}

function Snapshot({ title, value }: { title: string; value: unknown }) {
  return (
    <figure className="snapshot">
      <figcaption>{title}</figcaption>
      <pre>{JSON.stringify(value, null, 2)}</pre>
    </figure>
  );
}

/** What a record carries beyond its row: the request's facts, and the target before and after a change. */
function RecordDetails({ record }: { record: AuditRecord }) {
  const facts: [string, string | null][] = [
    ['Outcome', record.outcome === 'success' ? 'Succeeded' : 'Failed'],
    ['Request ID', record.requestId],
    ['API key', record.apiKeyId],
    ['Client address', record.ip],
    ['User agent', record.userAgent],
  ];
  // To copy into an ID search: the row shows names, and an operator or a deleted user may be found by no address.
  const ids: [string, string | null][] = [
    ["Actor's ID", record.actor.id],
    ["Target's ID", record.target.id],
  ];
  const { changes } = record;
  const given = (fact: [string, string | null]): fact is [string, string] => fact[1] !== null;
  return (
    <>
      <dl className="details">
        {facts.filter(given).map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        {ids.filter(given).map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd><CopyableValue label={label} value={value} /></dd>
          </div>
        ))}
      </dl>
      {changes === null ? (
        <p className="hint">An event: no state recorded.</p>
      ) : (
        <div className="snapshots">
          {changes.before != null && <Snapshot title="Before" value={changes.before} />}
          {changes.after != null && <Snapshot title="After" value={changes.after} />}
        </div>
      )}
    </>
  );
}

/** One record: when, what, who, on what, where; "Details" opens what it carries under it. */
export function AuditRow({ record, multiTenant, columns }: AuditRowProps) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  return (
    <>
      <tr>
        <th scope="row"><Timestamp value={record.time} /></th>
        <td><code>{record.action}</code></td>
        <td><Reference reference={record.actor} name={record.actorName} /></td>
        <td><Reference reference={record.target} name={record.targetName} /></td>
        {multiTenant && <td>{record.tenantName}</td>}
        <td>
          <button type="button" className="small" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen(!open)}>Details</button>
        </td>
      </tr>
      <tr id={detailsId} hidden={!open}>
        <td colSpan={columns}>{open && <RecordDetails record={record} />}</td>
      </tr>
    </>
  );
}
