import { DnsRecord } from '../components/dns-record.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { Timestamp } from '../components/timestamp.tsx';
import { useConfirmedAction } from '../hooks/use-confirmed-action.ts';
import { useSubmission, type SubmissionOutcome } from '../hooks/use-submission.ts';
import { deleteDomain, verifyDomain, type Domain, type DomainVerification } from '../operations-domains.ts';

interface DomainRowProps {
  appId: string;
  domain: Domain;
  /** Who holds it: "Application", or the tenant's name. */
  ownerName: string;
  /** The domain as a verification left it. */
  onChanged: (domain: Domain) => void;
  /** Told the sentence that says so, since the row leaves the list. */
  onDeleted: (notice: string) => void;
  /** Whether Verify / Check again is offered. */
  mayVerify: boolean;
  /** Whether Delete is offered. */
  mayDelete: boolean;
}

/** The server's answer to Verify: verified, or the reason it is not (yet), which the operator acts on. */
function VerificationAnswer({ hostname, outcome }: { hostname: string; outcome: SubmissionOutcome<DomainVerification> | null }) {
  if (outcome === null) return null;
  if ('refused' in outcome) return <ErrorMessage message={outcome.refused} />;
  const { verified, reason } = outcome.done;
  return verified ? <p role="status">{`${hostname} is verified.`}</p> : <ErrorMessage message={`${hostname} is not verified: ${reason ?? 'no reason given'}.`} />;
}

/** Verified or pending, and since when the daily re-checks have missed the record (the server's RECHECK_GRACE_MS). */
function VerificationState({ domain }: { domain: Domain }) {
  const missing = domain.failingSince === null ? null : <> · record missing since <Timestamp value={domain.failingSince} /></>;
  if (domain.verifiedAt === null) return <>Pending{missing}</>;
  return (
    <>
      Verified <Timestamp value={domain.verifiedAt} />
      {missing !== null && <>{missing}: publish it again, or the domain stops being verified 72 hours after that</>}
    </>
  );
}

/** One custom domain: its owner, whether it is verified, the TXT record that proves it, Verify while pending or failing, and Delete once confirmed, each where the operator may. */
export function DomainRow({ appId, domain, ownerName, onChanged, onDeleted, mayVerify, mayDelete }: DomainRowProps) {
  const verification = useSubmission<DomainVerification>();
  const removal = useConfirmedAction();
  const verify = () =>
    verification.run(async () => {
      const answer = await verifyDomain(appId, domain.tenantId, domain.id);
      onChanged(answer.domain);
      return answer;
    });
  const remove = () =>
    removal.run(`Delete the domain ${domain.hostname}? Sign-in pages are no longer served there, and adding it again means verifying it again.`, async () => {
      await deleteDomain(appId, domain.tenantId, domain.id);
      onDeleted(`The domain ${domain.hostname} is deleted.`);
    });

  return (
    <tr>
      <th scope="row">{domain.hostname}</th>
      <td>{ownerName}</td>
      <td>
        <VerificationState domain={domain} />
      </td>
      <td><DnsRecord record={domain.verificationRecord} /></td>
      {(mayVerify || mayDelete) && <td className="actions">
        {mayVerify && (!domain.verified || domain.failingSince !== null) && (
          <button type="button" className="small" disabled={verification.busy} onClick={verify}>
            {domain.verified ? 'Check again' : 'Verify'}
          </button>
        )}
        {mayDelete && <button type="button" className="small" disabled={removal.busy} onClick={remove}>Delete</button>}
        {verification.busy && <Loading>{`Looking up ${domain.verificationRecord.name}…`}</Loading>}
        <VerificationAnswer hostname={domain.hostname} outcome={verification.outcome} />
        {removal.failure !== null && <ErrorMessage message={removal.failure} />}
      </td>}
    </tr>
  );
}
