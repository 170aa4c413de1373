import { useId } from 'react';
import type { DomainVerificationRecord } from '../operations-domains.ts';

/** The record to publish, field by field as the API gives it, each read-only to copy. */
export function DnsRecord({ record }: { record: DomainVerificationRecord }) {
  const id = useId();
  const fields = [
    ['Name', record.name],
    ['Type', record.type],
    ['Value', record.value],
  ] as const;
  return (
    <dl className="dns-record">
      {fields.map(([label, value]) => (
        <div key={label}>
          <dt><label htmlFor={`${id}-${label}`}>{label}</label></dt>
          <dd>
            <input id={`${id}-${label}`} type="text" readOnly spellCheck={false} value={value} onFocus={(event) => event.currentTarget.select()} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
