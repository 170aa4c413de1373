import { useCallback, useId, useState } from 'react';
import { useAsync } from '../hooks/use-async.ts';
import { usePages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { getEmailDelivery, listEmailDeliveries, type EmailDeliverySummary } from '../operations-email.ts';
import type { SettingsScope } from '../operations.ts';
import { EmailPreview } from './email-preview.tsx';
import { PagedTable } from './paged-table.tsx';
import { ErrorMessage, Loading } from './status.tsx';
import { Subsection } from './subsection.tsx';
import { Timestamp } from './timestamp.tsx';

const HEADINGS = ['Time', 'To', 'Template', 'Status', 'Attempts', 'Last error'];

/** One mail read whole: where it stands, and what was queued (the bodies where the API shows them). */
function DeliveryDetails({ scope, deliveryId }: { scope: SettingsScope; deliveryId: string }) {
  const { appId, tenantId } = scope;
  const delivery = useAsync(useCallback(() => getEmailDelivery({ appId, tenantId }, deliveryId), [appId, tenantId, deliveryId]));
  if (delivery.status === 'loading') return <Loading>Loading the mail…</Loading>;
  if (delivery.status === 'failed') return <ErrorMessage message={delivery.message} />;
  const { note, sentAt } = delivery.data;
  return (
    <>
      {(note !== null || sentAt !== null) && (
        <dl className="details">
          {sentAt !== null && (
            <div>
              <dt>Sent</dt>
              <dd><Timestamp value={sentAt} /></dd>
            </div>
          )}
          {note !== null && (
            <div>
              <dt>Note</dt>
              <dd>{note}</dd>
            </div>
          )}
        </dl>
      )}
      <EmailPreview rendered={delivery.data} title={`The mail to ${delivery.data.to}`} />
    </>
  );
}

/** A delivery's row; "Details" opens the mail under it. */
function DeliveryRow({ scope, delivery }: { scope: SettingsScope; delivery: EmailDeliverySummary }) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  return (
    <>
      <tr>
        <th scope="row"><Timestamp value={delivery.createdAt} /></th>
        <td>{delivery.to}</td>
        <td><code>{delivery.templateKey}</code></td>
        <td>{delivery.status}</td>
        <td>{delivery.attempts}</td>
        <td>{delivery.lastError ?? ''}</td>
        <td>
          <button type="button" className="small" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen(!open)}>Details</button>
        </td>
      </tr>
      <tr id={detailsId} hidden={!open}>
        <td colSpan={HEADINGS.length + 1}>{open && <DeliveryDetails scope={scope} deliveryId={delivery.id} />}</td>
      </tr>
    </>
  );
}

function DeliveryTable({ scope }: { scope: SettingsScope }) {
  const { appId, tenantId } = scope;
  const deliveries = usePages(useCallback((cursor: string | null) => listEmailDeliveries({ appId, tenantId }, cursor), [appId, tenantId]));
  useReadOnReturn(deliveries);
  return (
    <PagedTable
      pages={deliveries}
      columns={HEADINGS}
      actionsHeading="Details"
      emptyMessage="No mail was queued here yet."
      loadingLabel="Loading the deliveries…"
      row={(delivery) => <DeliveryRow key={delivery.id} scope={scope} delivery={delivery} />}
    />
  );
}

/** The scope's outbox (a tenant's mails, or the application's and all its tenants'), newest first; Refresh reads it
 *  again, as does each mail the screen queues (`queued` counts them). */
export function EmailDeliveries({ scope, queued }: { scope: SettingsScope; queued: number }) {
  const [reads, setReads] = useState(0);
  return (
    <Subsection title="Deliveries">
      <p className="hint">
        {scope.tenantId === null ? 'Every mail of the application and its tenants, newest first.' : 'This tenant’s mails, newest first.'}{' '}
        <button type="button" className="small" onClick={() => setReads(reads + 1)}>Refresh</button>
      </p>
      <DeliveryTable key={`${reads}:${queued}`} scope={scope} />
    </Subsection>
  );
}
