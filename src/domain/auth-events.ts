import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../clock.ts';
import { newId } from '../ids.ts';
import { currentRequestOrigin } from '../request-origin.ts';
import { activeUsersCtes, countActiveUsers, signInCountCtes, utcDay, type ActivityRow } from './analytics.ts';
import { recordAuditPerRow } from './audit.ts';
import { asBackgroundWork } from '../background-work.ts';

/**
 * Authentication events: each one an audit record (src/domain/audit-actions.ts) and a count in the analytics
 * rollups (src/domain/analytics.ts). Sign-ins are written in one statement each as they are answered; tokens, which
 * the token endpoint issues by the thousand a second, go through a buffer written at least every second.
 */

/** Why a sign-in was refused, for the administrators' log only: the page shows every refusal alike. */
export type SignInFailureReason =
  /** An e-mail or password missing, too long, or unreadable. */
  | 'invalid_input'
  /** No user of the pool has the e-mail. */
  | 'unknown_user'
  /** The user has no password (signs in another way). */
  | 'no_password'
  | 'wrong_password'
  /**
   * A code that does not prove the user: an e-mail sign-in's (src/domain/sign-in/email-methods.ts), or a second
   * factor's (TOTP, e-mail, recovery) that is not the user's, or has expired or been used.
   */
  | 'wrong_code'
  /** A magic link unknown, used, expired, or opened for another sign-in. */
  | 'invalid_link'
  /** The user is suspended or locked. */
  | 'user_inactive'
  /** The client address is locked out of the account, or must wait after its last failures (lockout policy). */
  | 'address_locked'
  | 'address_waiting'
  /** A TOTP code of a step already accepted: a code works once. */
  | 'code_replayed'
  /** Upstream sign-in: the upstream refused, or its answer failed a check (state, nonce, PKCE, the ID token). */
  | 'upstream_error'
  /** Upstream sign-in: no usable e-mail for an account not linked yet. */
  | 'upstream_no_email'
  /** Upstream sign-in: the upstream did not verify the address, which is never linked or signed up with. */
  | 'upstream_email_unverified'
  /** Upstream sign-in: no account, and the provider or the surface allows no sign-up. */
  | 'signup_unavailable'
  /** An upstream's answer that proves nothing: a SAML response unsigned, badly signed, for another SP, or expired. */
  | 'invalid_assertion'
  /** A SAML assertion accepted before. */
  | 'replayed_assertion'
  /** The upstream asserted no e-mail address. */
  | 'no_email'
  /** The sign-in's surface does not offer the provider (disabled, or not the tenant's). */
  | 'method_unavailable'
  /** The account with the asserted e-mail never verified it: the upstream's word does not take it over. */
  | 'email_unverified'
  /** A WebAuthn answer naming no credential of the pool (of the relying party), or none of the user's. */
  | 'unknown_credential'
  /** A WebAuthn answer that fails a check: challenge unknown or used, origin, RP ID, signature, user verification, counter. */
  | 'invalid_passkey';

/** A sign-in attempt as its page answered it. */
export interface SignInAttempt {
  readonly applicationId: string;
  /** The tenant it counts in: the surface's, else the user's only one; null: the application's alone. */
  readonly tenantId: string | null;
  /** The OAuth client whose sign-in it was; null: none is known (an IdP-initiated SAML response refused on arrival). */
  readonly clientId: string | null;
  readonly requestId: string;
  /** How the user proved who they are: `password` (the hosted form), `magic_link`, `email_code`, `oauth` (an upstream provider), `saml`, `passkey`, … */
  readonly method: string;
  /** What the whole sign-in proved (RFC 8176), once a second factor completes it. */
  readonly amr?: readonly string[];
  /** The upstream provider of an `oauth` sign-in: the auth provider's id and its preset (`google`, …, `generic`). */
  readonly upstream?: { readonly providerId: string; readonly provider: string };
  /** The upstream auth provider that vouched for the user (SAML), kept in the record; its actor when no client is known. */
  readonly providerId?: string;
  readonly outcome:
    | { readonly ok: true; readonly userId: string }
    | { readonly ok: false; readonly reason: SignInFailureReason; readonly userId: string | null; readonly email: string | null };
}

/** The longest e-mail kept of a failed attempt (RFC 5321's path). */
const EMAIL_MAX = 320;

/** The e-mail typed, as a record can hold it: PostgreSQL's jsonb takes no NUL, so each becomes U+FFFD. */
const keptEmail = (email: string | null): string | null => (email === null ? null : email.slice(0, EMAIL_MAX).replaceAll('\0', '\uFFFD'));

/**
 * Records a sign-in attempt in one statement (its own transaction, as the spec wants a sign-in's record):
 * `user.signed_in` (actor the user) or `user.sign_in_failed` (actor the OAuth client whose page it was, outcome
 * failure), its day's count by method and outcome, and on success the user as active that day. Every attempt writes
 * one statement whatever its outcome, so that the write does not tell an unknown e-mail from a known one by its
 * duration (src/hosted/sign-in.ts verifies a password for both alike).
 */
export async function recordSignIn(deps: { orm: MikroORM; clock: Clock }, attempt: SignInAttempt): Promise<void> {
  const day = utcDay(deps.clock());
  const { applicationId, tenantId, outcome } = attempt;
  const { userId } = outcome;
  const actor = outcome.ok
    ? { type: 'user', id: outcome.userId }
    : attempt.clientId === null
      ? { type: 'auth_provider', id: attempt.providerId ?? 'unknown' }
      : { type: 'oauth_client', id: attempt.clientId };
  const counts = [
    signInCountCtes([{ applicationId, tenantId, day, method: attempt.method, succeeded: outcome.ok }]),
    ...(outcome.ok ? [activeUsersCtes([{ applicationId, tenantId, userId: outcome.userId, day }])] : []),
  ];
  const after = {
    method: attempt.method,
    clientId: attempt.clientId,
    ...(attempt.upstream === undefined ? {} : { upstream: attempt.upstream }),
    ...(attempt.providerId === undefined ? {} : { providerId: attempt.providerId }),
    ...(outcome.ok ? (attempt.amr === undefined ? {} : { amr: attempt.amr }) : { reason: outcome.reason, email: keptEmail(outcome.email) }),
  };
  await recordAuditPerRow(
    deps.orm.em.fork(),
    { applicationId, tenantId, requestId: attempt.requestId, principal: { actor } },
    { action: outcome.ok ? 'user.signed_in' : 'user.sign_in_failed', targetType: 'user', outcome: outcome.ok ? 'success' : 'failure' },
    {
      ctes: `${counts.map((count) => count.ctes).join(',\n')},
        changed as (select ?::text as target_id, null::jsonb as before, ?::jsonb as after)`,
      params: [...counts.flatMap((count) => count.params), userId, JSON.stringify(after)],
    },
  );
}

/** Tokens issued once by the token endpoint (oidc-provider's `grant.success`). */
export interface TokenIssued {
  readonly applicationId: string;
  /** The client's own tenant (a tenant-bound client or credential); a user's grant's tenant is looked up at the write. */
  readonly tenantId: string | null;
  readonly clientId: string;
  /** `authorization_code`, `refresh_token`, `client_credentials`, `urn:ietf:params:oauth:grant-type:device_code`. */
  readonly grantType: string;
  /** The user the tokens are for; null for a client's own (client credentials). */
  readonly userId: string | null;
  readonly grantId: string | null;
  readonly requestId: string;
}

interface Buffered extends TokenIssued {
  readonly id: string;
  readonly at: Date;
  readonly ip: string | null;
  readonly userAgent: string | null;
}

export interface TokenEventLog {
  error(details: object, message: string): void;
}

/** How often the buffer is written, at most: the loss window of a crash (docs/audit.md). */
const FLUSH_EVERY_MS = 1_000;
/** Events held at most: beyond, new ones are counted as dropped and logged (a database that stopped answering). */
const MAX_BUFFERED = 100_000;

/**
 * The token endpoint's events, held in memory and written in one transaction per flush, at least every second and
 * off the request path: the grant answers without waiting on the audit log. A crash loses what the buffer held, at
 * most the last second's tokens (their records and their activity); a flush that fails is logged and its events lost,
 * the tokens themselves being already issued. A clean stop writes what is left.
 */
export class TokenEventWriter {
  readonly #orm: MikroORM;
  readonly #clock: Clock;
  #buffer: Buffered[] = [];
  #dropped = 0;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #log: TokenEventLog | undefined;

  constructor(orm: MikroORM, clock: Clock) {
    this.#orm = orm;
    this.#clock = clock;
  }

  start(log: TokenEventLog): void {
    this.#log = log;
    this.#timer ??= asBackgroundWork('token-events', () => setInterval(() => void this.flush(), FLUSH_EVERY_MS).unref());
  }

  /** Takes the event of the request being handled (its origin is read here, where the request still is). */
  record(event: TokenIssued): void {
    if (this.#buffer.length >= MAX_BUFFERED) {
      this.#dropped += 1;
      return;
    }
    const origin = currentRequestOrigin();
    this.#buffer.push({ ...event, id: newId(), at: this.#clock(), ip: origin?.ip ?? null, userAgent: origin?.userAgent ?? null });
  }

  /** Writes what the buffer holds now, after any write under way. */
  flush(): Promise<void> {
    const batch = this.#buffer;
    const dropped = this.#dropped;
    this.#buffer = [];
    this.#dropped = 0;
    if (dropped > 0) this.#log?.error({ dropped }, 'token events dropped: the buffer was full');
    this.#writing = this.#writing.then(() =>
      batch.length === 0 ? undefined : this.#write(batch).catch((error: unknown) => this.#log?.error({ err: error, lost: batch.length }, 'token events not written')),
    );
    return this.#writing;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  async #write(batch: readonly Buffered[]): Promise<void> {
    await this.#orm.em.fork().transactional(async (em) => {
      // A user's tokens count in the tenant they signed in to, which their grant keeps beside it (src/oidc/adapter.ts).
      const grants = [...new Set(batch.flatMap((event) => (event.tenantId === null && event.grantId !== null ? [event.grantId] : [])))];
      const tenants = new Map<string, string | null>();
      if (grants.length > 0) {
        const rows = await em.execute<{ id: string; tenant_id: string | null }[]>(
          `select id, payload->>'tenantId' as tenant_id from oidc_model
            where model = 'GrantTenant' and id in (select jsonb_array_elements_text(?::jsonb))`,
          [JSON.stringify(grants)],
        );
        for (const row of rows) tenants.set(row.id, row.tenant_id);
      }
      const events = batch.map((event) => ({ ...event, tenantId: event.tenantId ?? (event.grantId === null ? null : (tenants.get(event.grantId) ?? null)) }));
      // One statement for the batch, in the order the events came (their stream order); events of applications deleted
      // since are left out.
      await em.execute(
        `insert into audit_log (application_id, id, tenant_id, actor_type, actor_id, action, target_type, target_id, request_id, ip, user_agent, after, created_at)
         select e.application_id, e.id, e.tenant_id, 'oauth_client', e.client_id, 'token.issued', e.target_type, e.target_id, e.request_id, e.ip, e.user_agent,
                jsonb_build_object('grantType', e.grant_type, 'clientId', e.client_id), e.at
           from jsonb_to_recordset(?::jsonb) as e(application_id uuid, id uuid, tenant_id uuid, client_id text, grant_type text, target_type text,
                target_id text, request_id text, ip text, user_agent text, at timestamptz, n integer)
           join application as a on a.id = e.application_id
          order by e.n`,
        [
          JSON.stringify(
            events.map((event, n) => ({
              n,
              application_id: event.applicationId,
              id: event.id,
              tenant_id: event.tenantId,
              client_id: event.clientId,
              grant_type: event.grantType,
              target_type: event.userId === null ? 'oauth_client' : 'user',
              target_id: event.userId ?? event.clientId,
              request_id: event.requestId,
              ip: event.ip,
              user_agent: event.userAgent,
              at: event.at.toISOString(),
            })),
          ),
        ],
      );
      const activity: ActivityRow[] = events.flatMap((event) =>
        event.userId === null ? [] : [{ applicationId: event.applicationId, tenantId: event.tenantId, userId: event.userId, day: utcDay(event.at) }],
      );
      await countActiveUsers(em, activity);
    });
  }
}
