import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { SecretBox } from '../../auth/client-secrets.ts';
import type { Config } from '../../config.ts';
import { Application } from '../../db/entities/index.ts';
import { recordAudit, type AuditActor } from '../audit/audit.ts';
import { settingIn, WITHDRAWN_REASONS } from './outbox.ts';
import { builtInFromAddress, type EmailProviderValue, type SmtpSettings } from './provider.ts';
import { domainOf, expectedRecords, findSenderDomain, isVerified, returnPathAddress } from './sender-domain.ts';
import { postmarkTransport } from './transports/postmark.ts';
import { resendTransport } from './transports/resend.ts';
import { sendgridTransport } from './transports/sendgrid.ts';
import { sesTransport } from './transports/ses.ts';
import { publicAddressOf, smtpPool, smtpTransport, smtpUrlTarget, type SmtpOptions } from './transports/smtp.ts';
import { DeliveryError, type OutgoingMail, type Sent, type Transport } from './transports/transport.ts';
import { asBackgroundWork } from '../../background-work.ts';
import { inJobSpan } from '../../observability/spans.ts';
import { madeOnce } from '../../made-once.ts';
import { servesClientsSql } from '../organizations/status.ts';

/** Attempts under way at once; a claim takes as many mails as there are free places. */
const IN_FLIGHT = 20;
/** Places one owner's mails may hold: the rest stay free for others while its server stalls. */
export const OWNER_PLACES = 16;
/** Due rows a claim weighs, earliest first (of owners with a place left). */
const CLAIM_WINDOW = 5 * IN_FLIGHT;
/** Due rows a claim reads at most, earliest first, to find them: past a backlog this long at owners holding their share,
 *  others' mail waits for it to shrink (a claim reads a row in about 0.7 µs on PostgreSQL). */
const CLAIM_SCAN = 5_000;
const MAX_RETRY_DELAY_MS = 60 * 60 * 1_000;
const ERROR_LIMIT = 1_000;

export interface OutboxLog {
  warn(object: object, message: string): void;
}

/** This instance just committed some. */
export interface OutboxWaker {
  wake(): void;
}

interface Claimed {
  application_id: string;
  id: string;
  tenant_id: string | null;
  template_key: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  message_id: string;
  attempts: number;
  /** Whose provider it goes through as claimed: its tenant's own, or null, the application's. */
  provider_tenant_id: string | null;
  /** Withdrawn while an attempt held it (outbox.ts withdrawQueuedMail): not sent again. */
  withdrawn: string | null;
}

interface Outcome {
  readonly row: Claimed;
  /** `interrupted`: the worker stopped during the attempt; the mail is due again at once, the attempt not counted. */
  readonly status: 'sent' | 'failed' | 'retry' | 'interrupted';
  readonly providerType: string | null;
  readonly note: string | null;
  readonly lastError: string | null;
}

/** With the values to scrub from its errors. */
interface Route {
  readonly type: string;
  readonly from: { address: string; name: string | null };
  readonly replyTo: string | null;
  readonly transport: Transport;
  readonly secrets: readonly string[];
}

/** Exponential from `baseMs`, capped, half of it random so that mails that failed together do not return together. */
export function retryDelayMs(attempts: number, baseMs: number, random: () => number = Math.random): number {
  const full = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);
  return Math.round(full / 2 + (random() * full) / 2);
}

/**
 * Without any secret of the provider in what it answered (its own echo of a key), bounded. The service's own words are
 * left as they are: a secret equal to one of them would otherwise be told by the word replaced.
 */
export function scrubbed(error: DeliveryError, secrets: readonly string[]): string {
  let theirs = error.theirs;
  for (const secret of secrets) if (secret.length > 0) theirs = theirs.replaceAll(secret, '[secret]');
  const text = `${error.ours}${theirs}`;
  return text.length > ERROR_LIMIT ? `${text.slice(0, ERROR_LIMIT - 1)}…` : text;
}

const INTERRUPTED = 'interrupted: the service stopped during this attempt';
/** Between writes of a sent mail's outcome while the database fails: doubled each time, up to the last. */
const SENT_WRITE_FIRST_WAIT_MS = 100;
const SENT_WRITE_MAX_WAIT_MS = 2_000;

/** Settles by the time `signal` aborts, whatever `work` still waits for: a DNS lookup, for one, cannot be cancelled. */
function byDeadline<T>(work: Promise<T>, signal: AbortSignal, late: () => Error): Promise<T> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(late());
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

const SYSTEM: AuditActor['principal'] = { actor: { type: 'system', id: 'email-outbox' } };

/**
 * A claim leases due rows (`FOR UPDATE SKIP LOCKED`, `claimed_until`) in one short statement, so instances never claim
 * the same row; sending happens outside any transaction (on the embedded database a transaction must not wait on
 * anything else), and the outcome is written only while the lease is still this attempt's (`attempts` unchanged). A
 * process that dies mid-send leaves a lease that expires: the mail is sent again, with the same Message-ID.
 * Attempts run side by side, each ended by its own deadline, and a place freed is claimed again at once: a server that
 * never finishes answering holds up its own mail alone.
 */
export class OutboxWorker implements OutboxWaker {
  readonly #orm: MikroORM;
  readonly #config: Config;
  readonly #secrets: SecretBox;
  readonly #ca: string[] | undefined;
  /** Opened at the first mail. */
  #builtIn: ReturnType<typeof smtpPool> | undefined;
  #log: OutboxLog | undefined;
  readonly #outcomes: { outcome: Outcome; resolve: () => void; reject: (error: unknown) => void }[] = [];
  #writing: Promise<void> | undefined;
  #running = false;
  #woken = false;
  #timer: NodeJS.Timeout | undefined;
  #sleeping: (() => void) | undefined;
  /** While the loop waits for an attempt to end, every place being taken. */
  #full = false;
  #loop: Promise<void> | undefined;
  readonly #attempts = new Set<Promise<void>>();
  /** Attempts under way by provider's owner, in the claim's terms. */
  readonly #busy = new Map<string, { application_id: string; tenant_id: string | null; count: number }>();
  /** Aborts the attempts under way when the worker stops. */
  #stopping = new AbortController();

  constructor(orm: MikroORM, config: Config, secrets: SecretBox) {
    this.#orm = orm;
    this.#config = config;
    this.#secrets = secrets;
    const caFile = config.email.smtpCaFile;
    this.#ca = caFile === undefined ? undefined : [...rootCertificates, readFileSync(caFile, 'utf8')];
  }

  /** Twice the attempt's deadline, the margin for the reads before it and the write after: no other instance claims a
   *  mail while its attempt may still be running. */
  get #leaseMs(): number {
    return 2 * this.#config.email.sendTimeoutMs;
  }

  start(log: OutboxLog): void {
    if (this.#running) return;
    this.#log = log;
    this.#running = true;
    this.#stopping = new AbortController();
    this.#loop = asBackgroundWork('email-outbox', () => this.#run());
  }

  wake(): void {
    this.#woken = true;
    if (!this.#full) this.#sleeping?.();
  }

  /** Aborts the attempts under way and resolves once their mails are written back as queued (or sent, if they were). */
  async stop(): Promise<void> {
    this.#running = false;
    this.#stopping.abort();
    this.#sleeping?.();
    await this.#loop;
    await Promise.all(this.#attempts);
    this.#builtIn?.close();
    this.#builtIn = undefined;
  }

  async #run(): Promise<void> {
    // The embedded database serves this process alone: a lease left in it is a previous run's, dead with it.
    if (this.#config.databaseUrl === undefined) await this.#guard(() => this.#releaseLeases());
    while (this.#running) {
      if (this.#attempts.size >= IN_FLIGHT) {
        await this.#pause('place');
        continue;
      }
      this.#woken = false;
      const free = IN_FLIGHT - this.#attempts.size;
      const claimed = (await this.#guard(() => this.#claim(free))) ?? [];
      // The mails of one claim that share an owner share its provider, read once.
      const routes = new Map<string, Promise<Route>>();
      for (const row of claimed) this.#begin(row, routes);
      if (claimed.length === free || this.#woken) continue;
      await this.#pause('poll');
    }
  }

  #begin(row: Claimed, routes: Map<string, Promise<Route>>): void {
    const owner = ownerOf({ application_id: row.application_id, tenant_id: row.provider_tenant_id });
    const busy = this.#busy.get(owner) ?? { application_id: row.application_id, tenant_id: row.provider_tenant_id, count: 0 };
    busy.count += 1;
    this.#busy.set(owner, busy);
    const attempt: Promise<void> = inJobSpan('email-outbox deliver', () => this.#guard(() => this.#deliver(row, routes))).then(() => {
      this.#attempts.delete(attempt);
      busy.count -= 1;
      if (busy.count === 0) this.#busy.delete(owner);
      if (this.#full) this.#sleeping?.();
    });
    this.#attempts.add(attempt);
  }

  /** A database failure (down, restarting) is logged, and the next poll tries again. */
  async #guard<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      if (this.#running) this.#log?.warn({ err: error }, 'email outbox: database unavailable, retrying at the next poll');
      return undefined;
    }
  }

  /** Until an attempt ends (`place`), or until the next poll or a wake (`poll`); at once when stopping. */
  #pause(until: 'place' | 'poll'): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(this.#timer);
        this.#sleeping = undefined;
        this.#full = false;
        resolve();
      };
      this.#sleeping = done;
      this.#full = until === 'place';
      // unref: an idle worker does not keep a test's process (or a closed service's) alive.
      if (until === 'poll') this.#timer = setTimeout(done, this.#config.email.pollMs).unref();
      if (!this.#running || (until === 'poll' && this.#woken)) done();
    });
  }

  async #releaseLeases(): Promise<void> {
    await this.#orm.em.fork().execute(`update email_delivery set claimed_until = null where status = 'queued' and claimed_until is not null`);
  }

  /**
   * Earliest due first, but by the owner of the provider (a tenant's own while the application lets tenants have one,
   * else the application): each owner's mails are ranked by how many places it would then hold here, so a free place
   * goes to the owner holding fewest, and none to an owner holding OWNER_PLACES. The due condition is repeated where
   * rows are locked: a row another instance claimed since the ranking's snapshot is re-checked there. A deactivated
   * organization's mail waits for its reactivation (its console's goes: its operators' way back in). A mail whose link
   * or code has expired (`link_expires_at`, or its invitation's) is withdrawn as it is claimed: it would bring a dead link.
   */
  async #claim(limit: number): Promise<Claimed[]> {
    const busy = JSON.stringify([...this.#busy.values()]);
    return this.#orm.em.fork().execute<Claimed[]>(
      `with busy as (select * from jsonb_to_recordset(?::jsonb) as b(application_id uuid, tenant_id uuid, count integer)),
            held as (select a.id from application as a join organization as g on g.id = a.organization_id
                      where not ${servesClientsSql('a', 'g')}),
            candidate as (
              select e.application_id, e.id, e.next_attempt_at, o.tenant_id
                from (select application_id, id, tenant_id, next_attempt_at from email_delivery
                       where ${DUE('email_delivery')} and application_id not in (select id from held)
                       order by next_attempt_at limit ?) as e
                join application as a on a.id = e.application_id
                cross join lateral (select case when a.multi_tenant and a.email_provider_scope = 'tenant' and exists (
                         select 1 from setting as s where s.application_id = e.application_id and s.tenant_id = e.tenant_id
                            and s.feature = 'email_provider' and s.key = '') then e.tenant_id end as tenant_id) as o
               where not exists (select 1 from busy where busy.application_id = e.application_id
                                                   and busy.tenant_id is not distinct from o.tenant_id and busy.count >= ?)
               order by e.next_attempt_at limit ?),
            ranked as (
              select c.application_id, c.id, c.next_attempt_at, c.tenant_id as provider_tenant_id,
                     coalesce((select busy.count from busy where busy.application_id = c.application_id and busy.tenant_id is not distinct from c.tenant_id), 0)
                       + row_number() over (partition by c.application_id, c.tenant_id order by c.next_attempt_at, c.id) as holding
                from candidate as c),
            chosen as (select application_id, id, provider_tenant_id from ranked where holding <= ? order by holding, next_attempt_at limit ?)
       update email_delivery as d
          set claimed_until = now() + make_interval(secs => ?::double precision / 1000), attempts = d.attempts + 1,
              withdrawn = coalesce(d.withdrawn, case when d.link_expires_at <= now() or exists (
                                          select 1 from invitation as i
                                           where i.application_id = d.application_id and i.id = d.invitation_id and i.expires_at <= now())
                                        then ?::text end)
         from (select e.application_id, e.id, chosen.provider_tenant_id from email_delivery as e
                 join chosen on chosen.application_id = e.application_id and chosen.id = e.id
                where ${DUE('e')}
                for update of e skip locked) as due
        where d.application_id = due.application_id and d.id = due.id
        returning d.application_id, d.id, d.tenant_id, d.template_key, d.to_address, d.subject, d.text_body, d.html_body,
                  d.message_id, d.attempts, due.provider_tenant_id, d.withdrawn`,
      [busy, CLAIM_SCAN, OWNER_PLACES, CLAIM_WINDOW, OWNER_PLACES, limit, this.#leaseMs, WITHDRAWN_REASONS.expired],
    );
  }

  /** One deadline over the whole attempt (DNS, connection, every answer): a server that trickles its answer never lets
   *  the connection idle long enough for a socket timeout. */
  async #deliver(row: Claimed, routes: Map<string, Promise<Route>>): Promise<void> {
    const deadlineMs = this.#config.email.sendTimeoutMs;
    const stopping = this.#stopping.signal;
    // Its own controller, let go in `finally`: AbortSignal.any on the process-long `stopping` keeps every attempt's signal.
    const attempt = new AbortController();
    const abort = () => attempt.abort();
    const timer = setTimeout(abort, deadlineMs);
    stopping.addEventListener('abort', abort, { once: true });
    const { signal } = attempt;
    const leaseEnds = Date.now() + this.#leaseMs;
    let route: Route | undefined;
    let sent: Sent;
    try {
      // Withdrawn as it was claimed (expired), or under a lease whose attempt never wrote its outcome (its instance died): not sent now.
      if (row.withdrawn !== null) {
        await this.#record({ row, status: 'failed', providerType: null, note: null, lastError: row.withdrawn });
        return;
      }
      route = await madeOnce(routes, ownerOf(row), () => this.#route(this.#orm.em.fork(), row));
      const mail: OutgoingMail = {
        messageId: row.message_id,
        deliveryId: row.id,
        from: route.from,
        replyTo: route.replyTo,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
      };
      const { type } = route;
      sent = await byDeadline(route.transport(mail, signal), signal, () => new DeliveryError(`${type}: no complete answer within ${deadlineMs} ms`, false));
    } catch (caught) {
      if (stopping.aborted) {
        await this.#record({ row, status: 'interrupted', providerType: route?.type ?? null, note: null, lastError: INTERRUPTED });
        return;
      }
      const error = caught instanceof DeliveryError ? caught : new DeliveryError('internal: ', false, (caught as Error).message);
      const lastError = scrubbed(error, route?.secrets ?? []);
      const providerType = route?.type ?? null;
      const final = error.permanent || row.attempts >= this.#config.email.maxAttempts;
      await this.#record({ row, status: final ? 'failed' : 'retry', providerType, note: null, lastError });
      return;
    } finally {
      clearTimeout(timer);
      stopping.removeEventListener('abort', abort);
    }
    await this.#recordSent({ row, status: 'sent', providerType: route.type, note: sent.note, lastError: null }, leaseEnds);
  }

  /** The provider took the mail: its `sent` is written again while the database fails (a restart), until the lease ends.
   *  Written as a failed attempt, or left to the lease, the mail would be sent twice. */
  async #recordSent(outcome: Outcome, leaseEnds: number): Promise<void> {
    for (let waitMs = SENT_WRITE_FIRST_WAIT_MS; ; waitMs = Math.min(2 * waitMs, SENT_WRITE_MAX_WAIT_MS)) {
      try {
        return await this.#record(outcome);
      } catch (error) {
        if (!this.#running || Date.now() + waitMs >= leaseEnds) throw error;
        this.#log?.warn({ err: error, deliveryId: outcome.row.id }, 'email outbox: a sent mail not yet written, writing it again');
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
  }

  /** Its tenant's override while `emailProviderScope` = tenant. */
  async #route(em: EntityManager, row: Claimed): Promise<Route> {
    const application = await em.findOneOrFail(Application, { id: row.application_id }, { filters: false });
    const setting = await settingIn(em, application, row.tenant_id, 'email_provider', '');
    const stored = (setting?.value ?? {}) as Partial<EmailProviderValue>;
    const type: string = stored.type ?? 'gatehouse';
    const secret = (name: string): string => {
      const sealed = setting?.secrets?.[name];
      if (sealed === undefined) throw new DeliveryError(`${type}: secrets.${name} is not set`, true);
      return this.#secrets.decrypt(sealed);
    };
    const urls = this.#config.email.apiUrls;
    const smtpOptions: SmtpOptions = { timeoutMs: this.#config.email.sendTimeoutMs, ca: this.#ca };
    const from = { address: stored.fromAddress ?? builtInFromAddress(this.#config.publicUrl), name: stored.fromName ?? null };
    const base = { type, from, replyTo: stored.replyTo ?? null };
    switch (type) {
      case 'gatehouse': {
        const url = this.#config.email.smtpUrl;
        const gatehouseFrom = { address: builtInFromAddress(this.#config.publicUrl), name: stored.fromName ?? null };
        if (url === undefined) return { ...base, from: gatehouseFrom, transport: nowhere, secrets: [] };
        const target = smtpUrlTarget(url);
        this.#builtIn ??= smtpPool(target, smtpOptions, IN_FLIGHT);
        return { ...base, from: gatehouseFrom, transport: this.#builtIn.transport, secrets: target.auth === null ? [] : [target.auth.pass] };
      }
      case 'smtp': {
        const smtp = stored.smtp!;
        const pass = smtp.username === null ? null : secret('password');
        const auth = smtp.username === null || pass === null ? null : { user: smtp.username, pass };
        const guarded: SmtpOptions = {
          ...smtpOptions,
          ...(this.#config.email.allowPrivateHosts ? {} : { resolveHost: publicAddressOf }),
          ...(await this.#signing(em, row.application_id, setting?.tenantId ?? null, from.address, smtp)),
        };
        return { ...base, transport: smtpTransport({ host: smtp.host, port: smtp.port, security: smtp.security, auth }, guarded), secrets: pass === null ? [] : [pass] };
      }
      case 'sendgrid': {
        const apiKey = secret('apiKey');
        return { ...base, transport: sendgridTransport(urls.sendgrid, apiKey), secrets: [apiKey] };
      }
      case 'postmark': {
        const apiKey = secret('apiKey');
        return { ...base, transport: postmarkTransport(urls.postmark, apiKey), secrets: [apiKey] };
      }
      case 'resend': {
        const apiKey = secret('apiKey');
        return { ...base, transport: resendTransport(urls.resend, apiKey), secrets: [apiKey] };
      }
      case 'ses': {
        const ses = stored.ses!;
        const secretAccessKey = secret('secretAccessKey');
        return { ...base, transport: sesTransport(urls.ses, { region: ses.region, accessKeyId: ses.accessKeyId, secretAccessKey }), secrets: [secretAccessKey] };
      }
      default:
        throw new DeliveryError(`unknown provider type ${type}`, true);
    }
  }

  /** Once the owner's sender domain has a key (a GET made it); the return path only once it is verified, and only where
   *  one was published (an SMTP server given as an address has none: `bounces.{domain}` need not resolve). */
  async #signing(em: EntityManager, applicationId: string, owner: string | null, fromAddress: string, smtp: SmtpSettings): Promise<Pick<SmtpOptions, 'dkim' | 'envelopeFrom'>> {
    const domain = domainOf(fromAddress);
    const row = await findSenderDomain(em, applicationId, owner, domain);
    if (row === null) return {};
    const dkim = { domainName: domain, keySelector: row.dkimSelector, privateKey: this.#secrets.decrypt(row.dkimPrivateKey) };
    const expected = expectedRecords(domain, smtp, row);
    const returnPath = expected.some((record) => record.purpose === 'return_path');
    return returnPath && isVerified(row, expected) ? { dkim, envelopeFrom: returnPathAddress(domain) } : { dkim };
  }

  /** Outcomes that come during a write are written together by the next one: few transactions under load. */
  #record(outcome: Outcome): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#outcomes.push({ outcome, resolve, reject });
      if (this.#writing === undefined) this.#writing = this.#writeAll();
    });
  }

  async #writeAll(): Promise<void> {
    while (this.#outcomes.length > 0) {
      const batch = this.#outcomes.splice(0);
      try {
        await this.#write(batch.map((waiting) => waiting.outcome));
        for (const waiting of batch) waiting.resolve();
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.#writing = undefined;
  }

  /** Each only if its attempt still holds the lease (`attempts` unchanged), in one transaction. A mail withdrawn during
   *  its attempt keeps `sent`; any other outcome of it is final, `failed` with the withdrawal's reason. */
  async #write(outcomes: Outcome[]): Promise<void> {
    const values = JSON.stringify(
      outcomes.map(({ row, status, providerType, note, lastError }) => ({
        application_id: row.application_id,
        id: row.id,
        attempts: row.attempts,
        status,
        provider_type: providerType,
        note,
        last_error: lastError,
        delay_ms: status === 'retry' ? retryDelayMs(row.attempts, this.#config.email.retryBaseMs) : 0,
      })),
    );
    await this.#orm.em.fork().transactional(async (tx) => {
      const updated = await tx.execute<{ id: string; status: string; last_error: string | null }[]>(
        `update email_delivery as d
            set status = case when v.status = 'sent' then 'sent' when d.withdrawn is not null then 'failed'
                              when v.status in ('retry', 'interrupted') then 'queued' else v.status end,
                sent_at = case when v.status = 'sent' then now() end,
                next_attempt_at = case when v.status in ('retry', 'interrupted') then now() + make_interval(secs => v.delay_ms / 1000.0) else d.next_attempt_at end,
                attempts = d.attempts - (v.status = 'interrupted' and d.withdrawn is null)::integer,
                claimed_until = null, provider_type = coalesce(v.provider_type, d.provider_type), note = v.note,
                last_error = case when v.status <> 'sent' and d.withdrawn is not null then d.withdrawn else v.last_error end
           from jsonb_to_recordset(?::jsonb) as v(application_id uuid, id uuid, attempts integer, status text, provider_type text,
                                                  note text, last_error text, delay_ms double precision)
          where d.application_id = v.application_id and d.id = v.id and d.attempts = v.attempts and d.status = 'queued'
          returning d.id, d.status, d.last_error`,
        [values],
      );
      const written = new Map(updated.map((written) => [written.id, written]));
      for (const { row, providerType } of outcomes) {
        const { status, last_error: lastError } = written.get(row.id) ?? { status: 'unwritten', last_error: null };
        if (status !== 'sent' && status !== 'failed') continue;
        const actor: AuditActor = { applicationId: row.application_id, tenantId: row.tenant_id, requestId: row.id, principal: SYSTEM };
        recordAudit(tx, actor, {
          action: status === 'sent' ? 'email_delivery.sent' : 'email_delivery.failed',
          targetType: 'email_delivery',
          targetId: row.id,
          outcome: status === 'sent' ? 'success' : 'failure',
          after: { status, attempts: row.attempts, providerType, lastError },
        });
      }
    });
  }
}

/** Whose provider a mail goes through: its tenant's or its application's. */
const ownerOf = (row: Pick<Claimed, 'application_id' | 'tenant_id'>): string => `${row.application_id}/${row.tenant_id ?? ''}`;

const DUE = (r: string) => `${r}.status = 'queued' and ${r}.next_attempt_at <= now() and (${r}.claimed_until is null or ${r}.claimed_until <= now())`;

/** Without SMTP_URL the mail stays in the outbox, readable there, and leaves nowhere. */
const nowhere: Transport = () => Promise.resolve({ note: 'Not delivered: the built-in sender has no SMTP_URL; the mail is kept in the outbox' });
