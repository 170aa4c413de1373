import { useCallback } from 'react';
import { EMAIL_PROVIDER_KINDS } from '../email-providers.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import type { SettingsScope } from '../operations.ts';
import { getSenderDomain, verifySenderDomain, type SenderDnsRecord, type SenderDomain as Domain } from '../operations-sender-domain.ts';
import { DnsRecord } from './dns-record.tsx';
import { ErrorMessage, Loading, Outcome } from './status.tsx';
import { Subsection } from './subsection.tsx';
import { Timestamp } from './timestamp.tsx';

const PURPOSE: Readonly<Record<SenderDnsRecord['purpose'], string>> = {
  spf: 'SPF: lets the SMTP server send for the domain',
  dkim: 'DKIM: the key the mail is signed with',
  return_path: 'Return path: where bounces go',
};

function LastCheck({ record }: { record: SenderDnsRecord }) {
  if (record.found === null) return <>Not checked yet</>;
  return record.found ? <>Found</> : <>{`Missing: ${record.reason ?? 'not found'}`}</>;
}

/** Where the domain stands, and what the operator does about it. */
function DomainState({ domain }: { domain: Domain }) {
  if (domain.status === 'unverified') return <p>{`${domain.domain} is not verified: publish these records in its DNS, then check them.`}</p>;
  return (
    <p>
      {`${domain.domain} is verified`} {domain.verifiedAt !== null && <>since <Timestamp value={domain.verifiedAt} /></>}.
      {domain.failingSince !== null && (
        <>
          {' '}
          The daily check misses its return path since <Timestamp value={domain.failingSince} />: publish it again, or the
          domain stops being verified 72 hours after that.
        </>
      )}
    </p>
  );
}

interface SenderDomainProps {
  scope: SettingsScope;
  /** Whether Check DNS records is offered: the operator may write the e-mail settings there. */
  mayCheck: boolean;
}

/**
 * The From domain of the scope's provider: for an SMTP provider, the SPF, DKIM and return-path records to publish,
 * what the last check found, and a check through DNS; for the others, that there is nothing to publish here. A tenant
 * that inherits the application's provider is shown its domain, which only the application's settings check.
 */
export function SenderDomain({ scope: { appId, tenantId }, mayCheck }: SenderDomainProps) {
  const domain = useAsync(useCallback(() => getSenderDomain({ appId, tenantId }), [appId, tenantId]));
  useReadOnReturn(domain);
  const check = useSubmission<string>();
  const run = () =>
    check.run(async () => {
      const checked = await verifySenderDomain({ appId, tenantId });
      domain.replace(checked);
      return checked.status === 'verified' ? `${checked.domain} is verified: every record was found.` : 'Not every record was found: each says why below.';
    });

  return (
    <Subsection title="Sender domain">
      {domain.status === 'loading' && <Loading>Loading the sender domain…</Loading>}
      {domain.status === 'failed' && <ErrorMessage message={domain.message} />}
      {domain.status === 'done' && domain.data.source === 'inherited' && (
        <p className="hint">{`The application's provider sends this tenant's mail, from ${domain.data.domain}: the application's E-mail settings show its records.`}</p>
      )}
      {domain.status === 'done' && domain.data.source !== 'inherited' && domain.data.status === 'managed' && (
        <p className="hint">
          {domain.data.providerType === 'gatehouse'
            ? `The built-in sender sends from ${domain.data.domain}, this service's own: nothing to publish.`
            : `${EMAIL_PROVIDER_KINDS[domain.data.providerType].label} authenticates ${domain.data.domain} in your account there: nothing to publish here.`}
        </p>
      )}
      {domain.status === 'done' && domain.data.source !== 'inherited' && domain.data.status !== 'managed' && (
        <>
          <DomainState domain={domain.data} />
          <table>
            <thead>
              <tr>
                <th scope="col">Record</th>
                <th scope="col">Publish</th>
                <th scope="col">Last check</th>
              </tr>
            </thead>
            <tbody>
              {domain.data.records.map((record) => (
                <tr key={record.purpose}>
                  <th scope="row">{PURPOSE[record.purpose]}</th>
                  <td><DnsRecord record={record} /></td>
                  <td><LastCheck record={record} /></td>
                </tr>
              ))}
            </tbody>
          </table>
          {mayCheck && (
            <button type="button" disabled={check.busy} onClick={run}>Check DNS records</button>
          )}
          {check.busy && <Loading>{`Looking up the records of ${domain.data.domain}…`}</Loading>}
          <Outcome outcome={check.outcome} />
        </>
      )}
    </Subsection>
  );
}
