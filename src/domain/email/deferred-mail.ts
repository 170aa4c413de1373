import type { EntityManager } from '@mikro-orm/postgresql';
import { PeriodicJob, type JobLog } from '../../background-work.ts';
import { GatehouseError } from '../../errors.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { NEW_ID_SQL } from '../../ids.ts';
import { inJobSpan } from '../../observability/spans.ts';
import type { DomainServices } from '../../services.ts';
import { Application } from '../../db/entities/index.ts';
import { recordAuditPerRow, type AuditActor } from '../audit/audit.ts';
import { deliverySnapshotSql, providerTypeIn } from './outbox.ts';
import { accountDeletedMail, noticeOrDrop, type MailContext, type Recipient } from './flow-mail.ts';

/** Rendered and queued in one transaction: it holds a connection (the embedded database's only one) for this many renders. */
export const DEFERRED_MAIL_BATCH = 50;

/** The flow mails a set-based change may defer, each as its own flow queues it. */
const DEFERRED = {
  account_deleted: (at: MailContext, to: Recipient) => accountDeletedMail(at, to),
} as const;

interface DeferredRow {
  application_id: string;
  id: string;
  template_key: string;
  to_address: string;
  recipient_name: string | null;
  locale: string | null;
  request_id: string;
  actor_type: string;
  actor_id: string;
  api_key_id: string | null;
}

/** One statement whatever the pool's size, in the deletion's transaction; sent as the application's (the tenant's outbox goes). */
export async function deferAccountDeletedMails(em: EntityManager, actor: AuditActor, tenantId: string): Promise<void> {
  await executeOwned(
    em,
    actor.applicationId,
    `insert into deferred_mail (application_id, id, template_key, to_address, recipient_name, locale, request_id, actor_type, actor_id, api_key_id)
     select u.application_id, ${NEW_ID_SQL}, 'account_deleted', u.email, u.name, u.locale, ?, ?, ?, ?
       from app_user as u where @owner(u) and u.pool_id = ?`,
    [actor.requestId, actor.principal.actor.type, actor.principal.actor.id, actor.principal.apiKeyId ?? null, tenantId],
  );
}

/** The row is kept, not copied: an attempt under way writes its outcome to it, so the account is told once. */
export async function adoptAccountDeletedMails(em: EntityManager, actor: AuditActor, tenantId: string): Promise<void> {
  const application = await em.findOneOrFail(Application, { id: actor.applicationId }, { filters: false });
  await recordAuditPerRow(em, actor, { action: 'email_delivery.moved', targetType: 'email_delivery', tenantId }, {
    ctes: `changed as (
      update email_delivery as r set tenant_id = null, provider_type = ?
       where @owner(r) and r.tenant_id = ? and r.template_key = 'account_deleted' and r.status = 'queued'
      returning r.id::text as target_id, ${deliverySnapshotSql('r')} || jsonb_build_object('tenantId', ?::text) as before,
                ${deliverySnapshotSql('r')} || jsonb_build_object('tenantId', null) as after)`,
    params: [await providerTypeIn(em, application, null), tenantId, tenantId],
  });
}

/** One batch, each mail queued and its row gone together; rows another instance holds are left to it. How many it took. */
export async function queueDeferredMail(services: DomainServices, log: JobLog, batch = DEFERRED_MAIL_BATCH): Promise<number> {
  const taken = await services.orm.em.fork().transactional(async (em) => {
    const rows = await em.execute<DeferredRow[]>(`select * from deferred_mail order by id limit ? for update skip locked`, [batch]);
    for (const row of rows) {
      const send = DEFERRED[row.template_key as keyof typeof DEFERRED];
      const principal = { actor: { type: row.actor_type, id: row.actor_id }, apiKeyId: row.api_key_id };
      const sender = { applicationId: row.application_id, tenantId: null, requestId: row.request_id, principal, services };
      await noticeOrDrop(log, { applicationId: row.application_id, templateKey: row.template_key, deferredMailId: row.id }, async () => {
        if (send === undefined) throw new GatehouseError('validation_error', `no flow sends ${row.template_key}`);
        await send({ em, sender, tenantId: null }, { id: null, email: row.to_address, name: row.recipient_name, locale: row.locale, tenantIds: null });
      });
    }
    if (rows.length > 0) {
      const keys = JSON.stringify(rows.map((row) => ({ application_id: row.application_id, id: row.id })));
      await em.execute(
        `delete from deferred_mail as d using jsonb_to_recordset(?::jsonb) as k(application_id uuid, id uuid)
          where d.application_id = k.application_id and d.id = k.id`,
        [keys],
      );
    }
    return rows.length;
  });
  if (taken > 0) services.outbox.wake();
  return taken;
}

/** A poll that finds none makes no trace, as the outbox's do not. */
export class DeferredMailJob extends PeriodicJob {
  constructor(services: DomainServices, everyMs: number) {
    super(
      'deferred-mail',
      everyMs,
      async (log) => {
        const waiting = await services.orm.em.fork().execute(`select 1 from deferred_mail limit 1`);
        if (waiting.length === 0) return;
        await inJobSpan('deferred-mail run', async () => {
          while ((await queueDeferredMail(services, log)) === DEFERRED_MAIL_BATCH);
        });
      },
      { runsAtStart: true },
    );
  }
}
