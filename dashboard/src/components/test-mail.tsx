import { useEffect, useState, type FormEvent } from 'react';
import { errorMessage } from '../error-message.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { getEmailDelivery, sendTestEmail, type EmailDelivery } from '../operations-email.ts';
import type { SettingsScope } from '../operations.ts';
import { ErrorMessage, Refusal } from './status.tsx';
import { Subsection } from './subsection.tsx';
import { TextField } from './text-field.tsx';

// How often a queued test mail is read again, until its provider accepts or refuses it.
const FOLLOW_MS = 1_000;

/** A test mail that is `sent` but left nowhere: a warning saying why, and the mail as the outbox keeps it. */
function Undelivered({ delivery, note }: { delivery: EmailDelivery; note: string }) {
  return (
    <div className="undelivered">
      <p role="alert" className="warning">{`${note}.`}</p>
      <details>
        <summary>The mail in the outbox</summary>
        <pre aria-label="The undelivered mail">{`Subject: ${delivery.subject}\n\n${delivery.text}`}</pre>
      </details>
    </div>
  );
}

function DeliveryStatus({ delivery }: { delivery: EmailDelivery }) {
  if (delivery.status === 'failed') {
    return <ErrorMessage message={`The test mail to ${delivery.to} failed: ${delivery.lastError ?? 'no reason given'}`} />;
  }
  if (delivery.status === 'sent' && delivery.note !== null) return <Undelivered delivery={delivery} note={delivery.note} />;
  const sentence =
    delivery.status === 'sent'
      ? `The provider accepted the test mail to ${delivery.to}.`
      : `The test mail to ${delivery.to} is queued${delivery.lastError === null ? '' : `; its last attempt failed: ${delivery.lastError}`}…`;
  return <p role="status">{sentence}</p>;
}

/** "Send a test mail" through the scope's provider as saved, followed until the provider accepts or refuses it;
 *  `onQueued` is told once it is in the outbox. */
export function TestMail({ scope, onQueued }: { scope: SettingsScope; onQueued: () => void }) {
  const [to, setTo] = useState('');
  const [delivery, setDelivery] = useState<EmailDelivery | null>(null);
  const [followFailure, setFollowFailure] = useState<string | null>(null);
  const sending = useSubmission<void>();
  const { appId, tenantId } = scope;

  useEffect(() => {
    if (delivery?.status !== 'queued') return;
    let current = true;
    const timer = setTimeout(() => {
      getEmailDelivery({ appId, tenantId }, delivery.id).then(
        (next) => current && setDelivery(next),
        (error: unknown) => current && setFollowFailure(errorMessage(error)),
      );
    }, FOLLOW_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [appId, tenantId, delivery]);

  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDelivery(null);
    setFollowFailure(null);
    sending.run(async () => {
      setDelivery(await sendTestEmail({ appId, tenantId }, to.trim()));
      onQueued();
    });
  };

  return (
    <Subsection title="Send a test mail">
      <form className="email-form" noValidate onSubmit={send}>
        <RefusedField value={sending.refusal}>
          <TextField label="Test recipient" type="email" value={to} onChange={setTo} hint="Sent through the provider as saved." field="to" />
        </RefusedField>
        <div className="actions">
          <button type="submit" disabled={sending.busy}>Send test mail</button>
        </div>
      </form>
      <Refusal outcome={sending.outcome} />
      {delivery !== null && <DeliveryStatus delivery={delivery} />}
      {followFailure !== null && <ErrorMessage message={followFailure} />}
    </Subsection>
  );
}
