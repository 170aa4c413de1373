import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../clock.ts';
import { newId } from '../../ids.ts';
import { currentRequestOrigin } from '../../http/request-origin.ts';
import { activeUsersCtes, countActiveUsers, signInCountCtes, utcDay, type ActivityRow } from '../analytics.ts';
import { recordAuditPerRow } from './audit.ts';
import { asBackgroundWork } from '../../background-work.ts';
import { signIns } from '../../observability/metrics.ts';
import { inJobSpan } from '../../observability/spans.ts';
import type { SignInUser } from '../users/sign-in-user.ts';
import { MODEL, PAYLOAD } from '../../db/oidc-model.ts';

/** Each event is an audit record and an analytics count: sign-ins one statement each, tokens (thousands a second) buffered. */

/** For the administrators' log only: the page shows every refusal alike. */
export type SignInFailureReason =
  | 'invalid_input'
  | 'unknown_user'
  | 'no_password'
  | 'wrong_password'
  /** An e-mail sign-in's code, or a second factor's, that is not the user's, expired or used. */
  | 'wrong_code'
  | 'invalid_link'
  | 'user_inactive'
  /** The client address is locked out of the account, or must wait after its last failures (lockout policy). */
  | 'address_locked'
  | 'address_waiting'
  | 'code_replayed'
  /** The MFA step's answer came after its proven first factor had used up its attempts (src/domain/mfa/second-step.ts). */
  | 'too_many_codes'
  /** The MFA step's enrolment proved its factor but added none (a key registered already, to anyone, or a factor enrolled
   *  meanwhile in another tab): the step was not passed, and is asked again as it now stands. */
  | 'factor_not_added'
  /** The MFA step's enrolment found, holding the user's row, that the password its sign-in proved was replaced since (a
   *  reset, a change): nothing was added. */
  | 'password_replaced'
  /** The upstream refused, or its answer failed a check (state, nonce, PKCE, the ID token). */
  | 'upstream_error'
  | 'upstream_no_email'
  /** Such an address is never linked or signed up with. */
  | 'upstream_email_unverified'
  | 'signup_unavailable'
  | 'invalid_assertion'
  | 'replayed_assertion'
  /** The SAML IdP answered with a status, no assertion: its user cancelled, or failed there. */
  | 'idp_refused'
  | 'no_email'
  /** Disabled, or not the tenant's. */
  | 'method_unavailable'
  /** An account whose e-mail was never verified: no upstream's word takes it over, no password signs it in where the
   *  policy requires a verified address. */
  | 'email_unverified'
  /** The account holds more than whoever made or last changed the upstream provider (src/domain/auth-providers/configurer.ts). */
  | 'provider_not_trusted'
  | 'unknown_credential'
  | 'invalid_passkey'
  /** The key's own signature with a counter that did not grow: a copy of the authenticator (docs/decisions.md). */
  | 'cloned_passkey'
  /** The person at the page said the sign-in was not theirs: a magic link's "No", an unsolicited SAML identity's Cancel. */
  | 'declined_by_user';

/** Who an attempt names, with their memberships as read at the attempt (recordSignIn names no one in another tenant's log). */
export type AttemptUser = Pick<SignInUser, 'id' | 'email' | 'tenantIds'>;

export interface SignInAttempt {
  readonly applicationId: string;
  /** The surface's, else the user's only one; null: the application's alone. */
  readonly tenantId: string | null;
  /** Null: none is known (an IdP-initiated SAML response refused on arrival). */
  readonly clientId: string | null;
  readonly requestId: string;
  readonly method: string;
  /** RFC 8176, once a second factor completes the sign-in. */
  readonly amr?: readonly string[];
  readonly upstream?: { readonly providerId: string; readonly provider: string };
  /** SAML: kept in the record; its actor when no client is known. */
  readonly providerId?: string;
  /** A failure's actor when no sign-in of a client was under way: the invitation whose page checked the password. */
  readonly by?: { readonly type: 'invitation'; readonly id: string };
  readonly outcome:
    /** `stepFollows`: a first factor the MFA step follows, not yet a sign-in: neither counted nor an activity. */
    | { readonly ok: true; readonly user: AttemptUser; readonly stepFollows?: boolean }
    | { readonly ok: false; readonly reason: SignInFailureReason; readonly user: AttemptUser | null; readonly email: string | null };
}

/** RFC 5321's path. */
const EMAIL_MAX = 320;

/** PostgreSQL's jsonb takes no NUL, so each becomes U+FFFD. */
const keptEmail = (email: string | null): string | null => (email === null ? null : email.slice(0, EMAIL_MAX).replaceAll('\0', '\uFFFD'));

/** One statement in its own transaction (as the spec wants a sign-in's record) whatever the outcome, so the write's
 *  duration does not tell an unknown e-mail from a known one. A sign-in is counted (analytics and gatehouse_sign_ins_total
 *  alike), and its user active, once: when it completes (`user.signed_in`), not at a first factor the MFA step follows
 *  (`user.first_factor_proven`); each refusal is counted by the method it refused. */
export async function recordSignIn(deps: { orm: MikroORM; clock: Clock }, attempt: SignInAttempt): Promise<void> {
  const day = utcDay(deps.clock());
  const { applicationId, tenantId } = attempt;
  const { amr, outcome } = asTenantSees(attempt);
  const userId = outcome.user?.id ?? null;
  const completes = !outcome.ok || outcome.stepFollows !== true;
  const actor = outcome.ok
    ? { type: 'user', id: outcome.user.id }
    : attempt.by !== undefined
      ? attempt.by
      : attempt.clientId === null
      ? { type: 'auth_provider', id: attempt.providerId ?? 'unknown' }
      : { type: 'oauth_client', id: attempt.clientId };
  const counts = completes
    ? [
        signInCountCtes([{ applicationId, tenantId, day, method: attempt.method, succeeded: outcome.ok }]),
        ...(outcome.ok ? [activeUsersCtes([{ applicationId, tenantId, userId: outcome.user.id, day }])] : []),
      ]
    : [];
  const after = {
    method: attempt.method,
    clientId: attempt.clientId,
    ...(attempt.upstream === undefined ? {} : { upstream: attempt.upstream }),
    ...(attempt.providerId === undefined ? {} : { providerId: attempt.providerId }),
    ...(outcome.ok ? (amr === undefined ? {} : { amr }) : { reason: outcome.reason, email: keptEmail(outcome.email) }),
  };
  const action = !outcome.ok ? 'user.sign_in_failed' : completes ? 'user.signed_in' : 'user.first_factor_proven';
  await recordAuditPerRow(
    deps.orm.em.fork(),
    { applicationId, tenantId, requestId: attempt.requestId, principal: { actor } },
    { action, targetType: 'user', outcome: outcome.ok ? 'success' : 'failure' },
    {
      ctes: [...counts.map((count) => count.ctes), `changed as (select ?::text as target_id, null::jsonb as before, ?::jsonb as after)`].join(',\n'),
      params: [...counts.flatMap((count) => count.params), userId, JSON.stringify(after)],
    },
  );
  if (completes) signIns.inc({ method: attempt.method, outcome: outcome.ok ? 'success' : 'failure' });
}

/** A user of other tenants only is, in a tenant's record, the unknown address the page takes them for: the tenant's
 *  administrators, who read its log, may not learn another tenant's user nor that the address has an account. */
function asTenantSees({ tenantId, amr, outcome }: SignInAttempt): Pick<SignInAttempt, 'amr' | 'outcome'> {
  const { user } = outcome;
  if (tenantId === null || user === null || user.tenantIds.includes(tenantId)) return { amr, outcome };
  return { outcome: { ok: false, reason: 'unknown_user', user: null, email: (outcome.ok ? null : outcome.email) ?? user.email } };
}

/** oidc-provider's `grant.success`. */
export interface TokenIssued {
  readonly applicationId: string;
  /** The client's own tenant, or the tenant its user token was issued in; else the grant's is looked up at the write. */
  readonly tenantId: string | null;
  readonly clientId: string;
  readonly grantType: string;
  /** Null for a client's own (client credentials). */
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

/** The loss window of a crash (docs/audit.md). */
const FLUSH_EVERY_MS = 1_000;
/** Beyond, new ones are counted as dropped and logged (a database that stopped answering). */
const MAX_BUFFERED = 100_000;

/** Off the request path, one transaction per flush: a crash loses at most the last second's records, a failed flush its
 *  events (the tokens stand). A clean stop writes what is left. */
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

  /** Its origin is read here, where the request still is. */
  record(event: TokenIssued): void {
    if (this.#buffer.length >= MAX_BUFFERED) {
      this.#dropped += 1;
      return;
    }
    const origin = currentRequestOrigin();
    this.#buffer.push({ ...event, id: newId(), at: this.#clock(), ip: origin?.ip ?? null, userAgent: origin?.userAgent ?? null });
  }

  flush(): Promise<void> {
    const batch = this.#buffer;
    const dropped = this.#dropped;
    this.#buffer = [];
    this.#dropped = 0;
    if (dropped > 0) this.#log?.error({ dropped }, 'token events dropped: the buffer was full');
    this.#writing = this.#writing.then(() =>
      batch.length === 0 ? undefined : inJobSpan('token-events write', () => this.#write(batch)).catch((error: unknown) => this.#log?.error({ err: error, lost: batch.length }, 'token events not written')),
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
      // A user's tokens count in the tenant they signed in to, which their grant keeps beside it (src/oidc/grant-tenant.ts).
      const grants = [...new Set(batch.flatMap((event) => (event.tenantId === null && event.grantId !== null ? [event.grantId] : [])))];
      const tenants = new Map<string, string | null>();
      if (grants.length > 0) {
        const rows = await em.execute<{ id: string; tenant_id: string | null }[]>(
          `select id, payload->>'${PAYLOAD.tenantId}' as tenant_id from oidc_model
            where model = '${MODEL.GrantTenant}' and id in (select jsonb_array_elements_text(?::jsonb))`,
          [JSON.stringify(grants)],
        );
        for (const row of rows) tenants.set(row.id, row.tenant_id);
      }
      const events = batch.map((event) => ({ ...event, tenantId: event.tenantId ?? (event.grantId === null ? null : (tenants.get(event.grantId) ?? null)) }));
      // One statement for the batch, in stream order; events of applications deleted since are left out.
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
