import { MikroORM, type LogContext, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Config } from '../config.ts';
import { queryDurations } from '../observability/metrics.ts';
import { alignFixedRoles } from '../domain/authorization/built-in-roles.ts';
import { holdingSessionLock } from './advisory-lock.ts';
import { ENTITIES } from './entities/index.ts';
import { Migration0001Initial } from './migrations/0001-initial.ts';
import { Migration0002AuthProviderSlot } from './migrations/0002-auth-provider-slot.ts';
import { Migration0003OAuth } from './migrations/0003-oauth.ts';
import { Migration0004SignInLockout } from './migrations/0004-sign-in-lockout.ts';
import { Migration0005SurfaceLookups } from './migrations/0005-surface-lookups.ts';
import { Migration0006AuditApiKey } from './migrations/0006-audit-api-key.ts';
import { Migration0007EmailUnicodeKeys } from './migrations/0007-email-unicode-keys.ts';
import { Migration0008OidcModelApplication } from './migrations/0008-oidc-model-application.ts';
import { Migration0009SigningKeySignsFrom } from './migrations/0009-signing-key-signs-from.ts';
import { Migration0010OAuthClientIdTokenAlg } from './migrations/0010-oauth-client-id-token-alg.ts';
import { Migration0011SigningKeyRevoked } from './migrations/0011-signing-key-revoked.ts';
import { Migration0012EmailCaseFoldKeys } from './migrations/0012-email-case-fold-keys.ts';
import { Migration0013IdempotencyAnswersOnly } from './migrations/0013-idempotency-answers-only.ts';
import { Migration0014SignInFailurePerAddress } from './migrations/0014-sign-in-failure-per-address.ts';
import { Migration0015Authorization } from './migrations/0015-authorization.ts';
import { Migration0016ApiResources } from './migrations/0016-api-resources.ts';
import { Migration0017EmailOutbox } from './migrations/0017-email-outbox.ts';
import { Migration0018UserLifecycleLookups } from './migrations/0018-user-lifecycle-lookups.ts';
import { Migration0019AuditSearch } from './migrations/0019-audit-search.ts';
import { Migration0020EmailSenderDomain } from './migrations/0020-email-sender-domain.ts';
import { Migration0021EmailLinkTokens } from './migrations/0021-email-link-tokens.ts';
import { Migration0022Sessions } from './migrations/0022-sessions.ts';
import { Migration0023OrganizationsInvitations } from './migrations/0023-organizations-invitations.ts';
import { Migration0024AuditStreamAnalytics } from './migrations/0024-audit-stream-analytics.ts';
import { Migration0025Mfa } from './migrations/0025-mfa.ts';
import { Migration0026PasswordAgeHistory } from './migrations/0026-password-age-history.ts';
import { Migration0028EmailSignIn } from './migrations/0028-email-sign-in.ts';
import { Migration0029UserIdentities } from './migrations/0029-user-identities.ts';
import { Migration0030Saml } from './migrations/0030-saml.ts';
import { Migration0031Webauthn } from './migrations/0031-webauthn.ts';
import { Migration0033UserLocale } from './migrations/0033-user-locale.ts';
import { Migration0034SamlSpKeys } from './migrations/0034-saml-sp-keys.ts';
import { Migration0035EmailChangeLinks } from './migrations/0035-email-change-links.ts';
import { Migration0036SuspendedLock } from './migrations/0036-suspended-lock.ts';
import { Migration0037SamlSpKeyRotation } from './migrations/0037-saml-sp-key-rotation.ts';
import { Migration0038OAuthClientManagementApi } from './migrations/0038-oauth-client-management-api.ts';
import { Migration0039MfaEmailCodeAttempts } from './migrations/0039-mfa-email-code-attempts.ts';
import { Migration0040EmailDeliveryRecipient } from './migrations/0040-email-delivery-recipient.ts';
import { Migration0041DomainClaims } from './migrations/0041-domain-claims.ts';
import { Migration0042ConsoleOperators } from './migrations/0042-console-operators.ts';
import { Migration0043InvitationGrantors } from './migrations/0043-invitation-grantors.ts';
import { Migration0044PasskeySignup } from './migrations/0044-passkey-signup.ts';
import { Migration0045SamlSubjects } from './migrations/0045-saml-subjects.ts';
import { Migration0046AuditActionNames } from './migrations/0046-audit-action-names.ts';
import { Migration0047SessionPerTenant } from './migrations/0047-session-per-tenant.ts';
import { Migration0048WebauthnChallengeCeremony } from './migrations/0048-webauthn-challenge-ceremony.ts';
import { Migration0049RevokedSignIns } from './migrations/0049-revoked-sign-ins.ts';
import { Migration0050EmailSignInAsker } from './migrations/0050-email-sign-in-asker.ts';
import { Migration0051LinkTenant } from './migrations/0051-link-tenant.ts';
import { Migration0052DefaultPasswordProvider } from './migrations/0052-default-password-provider.ts';
import { Migration0053DefaultPasswordProviderAudit } from './migrations/0053-default-password-provider-audit.ts';
import { Migration0054LinksInTheirUsersPools } from './migrations/0054-links-in-their-users-pools.ts';
import { Migration0055InvitationClient } from './migrations/0055-invitation-client.ts';
import { Migration0056SamlSubjectUsers } from './migrations/0056-saml-subject-users.ts';
import { Migration0057OAuthClientInitiateLoginUri } from './migrations/0057-oauth-client-initiate-login-uri.ts';
import { Migration0058LinkOpeners } from './migrations/0058-link-openers.ts';
import { Migration0059InvitationCodes } from './migrations/0059-invitation-codes.ts';
import { Migration0060ApiResourceIdentifiersHeldElsewhere } from './migrations/0060-api-resource-identifiers-held-elsewhere.ts';
import { Migration0061PasskeyClonedNoticeInMfaEnrolled } from './migrations/0061-passkey-cloned-notice-in-mfa-enrolled.ts';
import { Migration0062AnalyticsActiveUserByUser } from './migrations/0062-analytics-active-user-by-user.ts';
import { Migration0063EditedMigrationsCatchUp } from './migrations/0063-edited-migrations-catch-up.ts';
import { Migration0064DeviceUserCodeUnique } from './migrations/0064-device-user-code-unique.ts';
import { Migration0065OAuthClientAllowedOrigins } from './migrations/0065-oauth-client-allowed-origins.ts';
import { Migration0066AuthProviderConfiguredBy } from './migrations/0066-auth-provider-configured-by.ts';
import { Migration0067AuditLogApiKey } from './migrations/0067-audit-log-api-key.ts';
import { Migration0068UserVouchedByTenant } from './migrations/0068-user-vouched-by-tenant.ts';
import { Migration0069DomainRecheck } from './migrations/0069-domain-recheck.ts';
import { Migration0070AuditLogMemberTenants } from './migrations/0070-audit-log-member-tenants.ts';
import { Migration0071EmailDeliveryRecipientKey } from './migrations/0071-email-delivery-recipient-key.ts';
import { Migration0072EmailSenderDomainRecheck } from './migrations/0072-email-sender-domain-recheck.ts';
import { Migration0073DeferredMail } from './migrations/0073-deferred-mail.ts';
import { Migration0074InteractionLoginLookup } from './migrations/0074-interaction-login-lookup.ts';
import { Migration0075UserSignInsEnded } from './migrations/0075-user-sign-ins-ended.ts';
import { Migration0076EmailDeliveryWithdrawn } from './migrations/0076-email-delivery-withdrawn.ts';
import { Migration0077PasskeysInTheirUsersPools } from './migrations/0077-passkeys-in-their-users-pools.ts';
import { Migration0078EnrolmentLinks } from './migrations/0078-enrolment-links.ts';
import { Migration0079TenantMfaOverrideRemoved } from './migrations/0079-tenant-mfa-override-removed.ts';
import { Migration0080CopiedSecretsSpentTogether } from './migrations/0080-copied-secrets-spent-together.ts';
import { Migration0081EmailDeliveryUser } from './migrations/0081-email-delivery-user.ts';
import { Migration0082AddressRestoreLinks } from './migrations/0082-address-restore-links.ts';
import { Migration0083EmailDeliveryLinkExpiry } from './migrations/0083-email-delivery-link-expiry.ts';
import { Migration0084RestoreEarlierPasswords } from './migrations/0084-restore-earlier-passwords.ts';
import { Migration0085PoolUserKeysInTheirTenant } from './migrations/0085-pool-user-keys-in-their-tenant.ts';
import { Migration0086DeletedApplicationRetention } from './migrations/0086-deleted-application-retention.ts';
import { Migration0087EndTenantLinksOfWiderAccounts } from './migrations/0087-end-tenant-links-of-wider-accounts.ts';
import { Migration0088SamlRequestFreshness } from './migrations/0088-saml-request-freshness.ts';
import type { EmbeddedDatabase } from './embedded.ts';
import { gateStatements } from './statement-gate.ts';
import { StartRefusal } from '../process/start-failure.ts';

export const MIGRATIONS = [
  { name: '0001-initial', class: Migration0001Initial },
  { name: '0002-auth-provider-slot', class: Migration0002AuthProviderSlot },
  { name: '0003-oauth', class: Migration0003OAuth },
  { name: '0004-sign-in-lockout', class: Migration0004SignInLockout },
  { name: '0005-surface-lookups', class: Migration0005SurfaceLookups },
  { name: '0006-audit-api-key', class: Migration0006AuditApiKey },
  { name: '0007-email-unicode-keys', class: Migration0007EmailUnicodeKeys },
  { name: '0008-oidc-model-application', class: Migration0008OidcModelApplication },
  { name: '0009-signing-key-signs-from', class: Migration0009SigningKeySignsFrom },
  { name: '0010-oauth-client-id-token-alg', class: Migration0010OAuthClientIdTokenAlg },
  { name: '0011-signing-key-revoked', class: Migration0011SigningKeyRevoked },
  { name: '0012-email-case-fold-keys', class: Migration0012EmailCaseFoldKeys },
  { name: '0013-idempotency-answers-only', class: Migration0013IdempotencyAnswersOnly },
  { name: '0014-sign-in-failure-per-address', class: Migration0014SignInFailurePerAddress },
  { name: '0015-authorization', class: Migration0015Authorization },
  { name: '0016-api-resources', class: Migration0016ApiResources },
  { name: '0017-email-outbox', class: Migration0017EmailOutbox },
  { name: '0018-user-lifecycle-lookups', class: Migration0018UserLifecycleLookups },
  { name: '0019-audit-search', class: Migration0019AuditSearch },
  { name: '0020-email-sender-domain', class: Migration0020EmailSenderDomain },
  { name: '0021-email-link-tokens', class: Migration0021EmailLinkTokens },
  { name: '0022-sessions', class: Migration0022Sessions },
  { name: '0023-organizations-invitations', class: Migration0023OrganizationsInvitations },
  { name: '0024-audit-stream-analytics', class: Migration0024AuditStreamAnalytics },
  { name: '0025-mfa', class: Migration0025Mfa },
  { name: '0026-password-age-history', class: Migration0026PasswordAgeHistory },
  { name: '0028-email-sign-in', class: Migration0028EmailSignIn },
  { name: '0029-user-identities', class: Migration0029UserIdentities },
  { name: '0030-saml', class: Migration0030Saml },
  { name: '0031-webauthn', class: Migration0031Webauthn },
  { name: '0033-user-locale', class: Migration0033UserLocale },
  { name: '0034-saml-sp-keys', class: Migration0034SamlSpKeys },
  { name: '0035-email-change-links', class: Migration0035EmailChangeLinks },
  { name: '0036-suspended-lock', class: Migration0036SuspendedLock },
  { name: '0037-saml-sp-key-rotation', class: Migration0037SamlSpKeyRotation },
  { name: '0038-oauth-client-management-api', class: Migration0038OAuthClientManagementApi },
  { name: '0039-mfa-email-code-attempts', class: Migration0039MfaEmailCodeAttempts },
  { name: '0040-email-delivery-recipient', class: Migration0040EmailDeliveryRecipient },
  { name: '0041-domain-claims', class: Migration0041DomainClaims },
  { name: '0042-console-operators', class: Migration0042ConsoleOperators },
  { name: '0043-invitation-grantors', class: Migration0043InvitationGrantors },
  { name: '0044-passkey-signup', class: Migration0044PasskeySignup },
  { name: '0045-saml-subjects', class: Migration0045SamlSubjects },
  { name: '0046-audit-action-names', class: Migration0046AuditActionNames },
  { name: '0047-session-per-tenant', class: Migration0047SessionPerTenant },
  { name: '0048-webauthn-challenge-ceremony', class: Migration0048WebauthnChallengeCeremony },
  { name: '0049-revoked-sign-ins', class: Migration0049RevokedSignIns },
  { name: '0050-email-sign-in-asker', class: Migration0050EmailSignInAsker },
  { name: '0051-link-tenant', class: Migration0051LinkTenant },
  { name: '0052-default-password-provider', class: Migration0052DefaultPasswordProvider },
  { name: '0053-default-password-provider-audit', class: Migration0053DefaultPasswordProviderAudit },
  { name: '0054-links-in-their-users-pools', class: Migration0054LinksInTheirUsersPools },
  { name: '0055-invitation-client', class: Migration0055InvitationClient },
  { name: '0056-saml-subject-users', class: Migration0056SamlSubjectUsers },
  { name: '0057-oauth-client-initiate-login-uri', class: Migration0057OAuthClientInitiateLoginUri },
  { name: '0058-link-openers', class: Migration0058LinkOpeners },
  { name: '0059-invitation-codes', class: Migration0059InvitationCodes },
  { name: '0060-api-resource-identifiers-held-elsewhere', class: Migration0060ApiResourceIdentifiersHeldElsewhere },
  { name: '0061-passkey-cloned-notice-in-mfa-enrolled', class: Migration0061PasskeyClonedNoticeInMfaEnrolled },
  { name: '0062-analytics-active-user-by-user', class: Migration0062AnalyticsActiveUserByUser },
  { name: '0063-edited-migrations-catch-up', class: Migration0063EditedMigrationsCatchUp },
  { name: '0064-device-user-code-unique', class: Migration0064DeviceUserCodeUnique },
  { name: '0065-oauth-client-allowed-origins', class: Migration0065OAuthClientAllowedOrigins },
  { name: '0066-auth-provider-configured-by', class: Migration0066AuthProviderConfiguredBy },
  { name: '0067-audit-log-api-key', class: Migration0067AuditLogApiKey },
  { name: '0068-user-vouched-by-tenant', class: Migration0068UserVouchedByTenant },
  { name: '0069-domain-recheck', class: Migration0069DomainRecheck },
  { name: '0070-audit-log-member-tenants', class: Migration0070AuditLogMemberTenants },
  { name: '0071-email-delivery-recipient-key', class: Migration0071EmailDeliveryRecipientKey },
  { name: '0072-email-sender-domain-recheck', class: Migration0072EmailSenderDomainRecheck },
  { name: '0073-deferred-mail', class: Migration0073DeferredMail },
  { name: '0074-interaction-login-lookup', class: Migration0074InteractionLoginLookup },
  { name: '0075-user-sign-ins-ended', class: Migration0075UserSignInsEnded },
  { name: '0076-email-delivery-withdrawn', class: Migration0076EmailDeliveryWithdrawn },
  { name: '0077-passkeys-in-their-users-pools', class: Migration0077PasskeysInTheirUsersPools },
  { name: '0078-enrolment-links', class: Migration0078EnrolmentLinks },
  { name: '0079-tenant-mfa-override-removed', class: Migration0079TenantMfaOverrideRemoved },
  { name: '0080-copied-secrets-spent-together', class: Migration0080CopiedSecretsSpentTogether },
  { name: '0081-email-delivery-user', class: Migration0081EmailDeliveryUser },
  { name: '0082-address-restore-links', class: Migration0082AddressRestoreLinks },
  { name: '0083-email-delivery-link-expiry', class: Migration0083EmailDeliveryLinkExpiry },
  { name: '0084-restore-earlier-passwords', class: Migration0084RestoreEarlierPasswords },
  { name: '0085-pool-user-keys-in-their-tenant', class: Migration0085PoolUserKeysInTheirTenant },
  { name: '0086-deleted-application-retention', class: Migration0086DeletedApplicationRetention },
  { name: '0087-end-tenant-links-of-wider-accounts', class: Migration0087EndTenantLinksOfWiderAccounts },
  { name: '0088-saml-request-freshness', class: Migration0088SamlRequestFreshness },
];

/** Names released migrations ran under before they were renamed; each runs again under its new name, as a no-op. */
const RENAMED_MIGRATIONS = ['0018-oidc-model-account', '0062-api-resource-identifiers-held-elsewhere'];

/** Unknown migrations numbered among this release's are another build's; those after its last, a newer release's it may serve beside. */
async function refuseUnknownMigrations(orm: MikroORM): Promise<void> {
  const known = new Set([...MIGRATIONS.map((migration) => migration.name), ...RENAMED_MIGRATIONS]);
  const last = MIGRATIONS.at(-1)!.name;
  const unknown = (await orm.migrator.getExecuted()).map((row) => row.name).filter((name) => !known.has(name) && name < last);
  if (unknown.length > 0) {
    throw new StartRefusal(`the database ran migrations this release does not know (${unknown.join(', ')}): start the build that ran them, or a database of this release`);
  }
}

/**
 * Bounds on a database server (DATABASE_URL) that stops answering on open connections (a partition, a frozen server):
 * otherwise a query, and its request, wait for ever. The server cancels a statement after `statementMs`; the client
 * gives up a little later (`queryMs`), so a live server's clean cancellation comes first. A minute leaves room for
 * set-based bulk work. Migrations are bounded in connecting only; the embedded database is in-process and has none.
 */
export const DATABASE_TIMEOUTS = { connectMs: 5_000, statementMs: 60_000, queryMs: 65_000 } as const;

export interface Database {
  readonly orm: MikroORM;
  readonly embedded: EmbeddedDatabase | undefined;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** Counts every SQL statement sent (the N+1 tests and the bench read it). */
  onQuery?: (sql: string) => void;
}

/** Which DATABASE_TIMEOUTS a pool takes: none (the embedded database), connecting only (migrations), or all. */
type Bounds = 'none' | 'connect' | 'all';

export function ormOptions(url: string, poolMax: number, options: DatabaseOptions & { bounds?: Bounds } = {}): Options {
  const bounds = options.bounds ?? 'none';
  const onQuery = options.onQuery;
  return {
    clientUrl: url,
    entities: ENTITIES,
    extensions: [Migrator],
    // Each migration in a transaction of its own: the locks a quick one takes on a core table end with it, not with the last.
    migrations: { migrationsList: MIGRATIONS, transactional: true, allOrNothing: false, snapshot: false, snapshotOnMigrate: false, silent: true },
    pool: { min: 0, max: poolMax },
    // node-postgres' own names: statement_timeout is sent in the startup message (no SET), query_timeout is the client's.
    ...(bounds === 'none'
      ? {}
      : {
          driverOptions: {
            connectionTimeoutMillis: DATABASE_TIMEOUTS.connectMs,
            ...(bounds === 'all' ? { statement_timeout: DATABASE_TIMEOUTS.statementMs, query_timeout: DATABASE_TIMEOUTS.queryMs } : {}),
          },
        }),
    allowGlobalContext: false,
    forceUtcTimezone: true,
    // Every statement's time goes to the metrics (MikroORM measures it whether or not it logs); `onQuery` sees its SQL.
    ...(onQuery === undefined ? {} : { debug: ['query'] }),
    loggerFactory: () => ({
      log: (namespace: string, message: string) => {
        if (namespace === 'query') onQuery?.(message);
      },
      error: () => undefined,
      warn: () => undefined,
      logQuery: (context: LogContext) => {
        // Transaction statements (begin, commit) come without a time.
        if (context.took !== undefined) queryDurations.observe({ outcome: context.level === 'error' ? 'error' : 'ok' }, context.took / 1000);
        if (context.query !== undefined) onQuery?.(context.query);
      },
      setDebugMode: () => undefined,
      isEnabled: (namespace: string) => onQuery !== undefined && namespace === 'query',
    }),
  };
}

/** Serializes migrations of instances starting together on one database (docs/decisions.md, Workers). */
const MIGRATION_LOCK = 'gatehouse:migrations';

/**
 * Brings a database server's schema up to date, one instance at a time: MikroORM's migrator takes no lock, and
 * instances starting together on an empty database would both create the tables. The lock is a session's, held across
 * the migrations, each committed in its own transaction: a failure leaves those before it applied (docs/operations.md,
 * Upgrades). No statement timeouts: a migration may rewrite a large table.
 */
async function migrateAlone(url: string): Promise<void> {
  const orm = await MikroORM.init(ormOptions(url, 2, { bounds: 'connect' }));
  try {
    // The lock's connection needs the database, which `bootstrap` creates.
    await orm.schema.ensureDatabase();
    await holdingSessionLock(url, MIGRATION_LOCK, DATABASE_TIMEOUTS.connectMs, async () => {
      await refuseUnknownMigrations(orm);
      await orm.migrator.up();
      await alignFixedRoles(orm.em.getConnection());
    });
  } finally {
    await orm.close(true);
  }
}

/** Opens the database (the embedded one unless DATABASE_URL is set) and brings its schema up to date. */
export async function openDatabase(config: Config, options: DatabaseOptions & { url?: string; poolMax?: number } = {}): Promise<Database> {
  let embedded: EmbeddedDatabase | undefined;
  let url = options.url ?? config.databaseUrl;
  let poolMax = options.poolMax ?? config.databasePoolMax;
  if (url === undefined) {
    const { openEmbeddedDatabase } = await import('./embedded.ts');
    embedded = await openEmbeddedDatabase(config.dataDir);
    url = embedded.url;
    poolMax = embedded.poolMax;
  }
  // The embedded database is this process's alone (or reached through its owner's socket, by the CLI).
  const server = embedded === undefined && config.databaseUrl !== undefined;
  if (server) await migrateAlone(url);
  const orm = await MikroORM.init(ormOptions(url, poolMax, { ...options, bounds: server ? 'all' : 'none' }));
  try {
    const connection = orm.em.getConnection();
    gateStatements(connection, await connection.getNativeClient());
    if (!server) {
      await refuseUnknownMigrations(orm);
      await orm.migrator.up();
      await alignFixedRoles(orm.em.getConnection());
    }
    await embedded?.publish();
  } catch (error) {
    await orm.close(true);
    // Its lock file would refuse the next opening of the directory in this process (a command, a test).
    await embedded?.stop();
    throw error;
  }
  return {
    orm,
    embedded,
    async close() {
      await orm.close(true);
      await embedded?.stop();
    },
  };
}
