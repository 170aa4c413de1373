import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/db/orm.ts';

/**
 * Each released migration's code, comments aside: a database runs a migration once, under its name, so an edit
 * reaches only databases made after it (0021's `known_browser` did not, and 0063 had to make it). A migration is
 * added here as it is written.
 */
const RELEASED: Record<string, string> = {
  '0001-initial': 'c4f6edfd94d71145',
  '0002-auth-provider-slot': '87249f6474729f83',
  '0003-oauth': '60e10396712e05e6',
  '0004-sign-in-lockout': '30dba78ccbc2f7c6',
  '0005-surface-lookups': 'c6f53e1f48a7a1b8',
  '0006-audit-api-key': '6154b1649227dd0b',
  '0007-email-unicode-keys': '5d77fd59f60e41f9',
  '0008-oidc-model-application': 'e361b9db4970ab5f',
  '0009-signing-key-signs-from': '815dcb188000921c',
  '0010-oauth-client-id-token-alg': 'f98c015f791fd2ac',
  '0011-signing-key-revoked': '3dd5eb4ce7d79c5d',
  '0012-email-case-fold-keys': '1f49f4109482ec0f',
  '0013-idempotency-answers-only': '7333097594bb0b38',
  '0014-sign-in-failure-per-address': 'ca11b4d8d46556f0',
  '0015-authorization': '4d23f6f7befe211b',
  '0016-api-resources': '120f8678d179ffe3',
  '0017-email-outbox': 'f2fd109e88e2176a',
  '0018-user-lifecycle-lookups': 'ec3a38b9d4a66cee',
  '0019-audit-search': 'f086eccff665674f',
  '0020-email-sender-domain': 'fbba20d51b3a8405',
  '0021-email-link-tokens': '645076efd8a479af',
  '0022-sessions': '4eee3a1fe4a0a6a6',
  '0023-organizations-invitations': '6a70ac73e78dd39f',
  '0024-audit-stream-analytics': 'a9a994f6018b256f',
  '0025-mfa': 'a518df1ce1f07a1f',
  '0026-password-age-history': 'afb75c255acc2c3b',
  '0028-email-sign-in': '04bf0ceea833a9e4',
  '0029-user-identities': '87b46b67be47e523',
  '0030-saml': '84afee54e9737c2a',
  '0031-webauthn': 'e61134fcea0c7af8',
  '0033-user-locale': 'ab89bc8a579ea42d',
  '0034-saml-sp-keys': '5fffb64fe65b6956',
  '0035-email-change-links': '98d34b3dbd67ae8a',
  '0036-suspended-lock': 'df680a0d2f864a4f',
  '0037-saml-sp-key-rotation': '1dba27fedb0cccba',
  '0038-oauth-client-management-api': '902b5dcbd9ce71cc',
  '0039-mfa-email-code-attempts': 'd776692d2826d19a',
  '0040-email-delivery-recipient': '80f7d8ff70ce40be',
  '0041-domain-claims': '4a75b5ef693d662b',
  '0042-console-operators': '2491432ba0e16ada',
  '0043-invitation-grantors': '64b35d45eb11c70b',
  '0044-passkey-signup': '91b30f5eeb7a0706',
  '0045-saml-subjects': 'f41cef4107442fb8',
  '0046-audit-action-names': 'ce7f6de1ec366dc2',
  '0047-session-per-tenant': '0b164e2af5b0f5a3',
  '0048-webauthn-challenge-ceremony': '15b61468c56f8e37',
  '0049-revoked-sign-ins': 'c60059d1abeaf933',
  '0050-email-sign-in-asker': 'f9540ab933a774f4',
  '0051-link-tenant': '7c6a296364a09a1b',
  '0052-default-password-provider': '50235e346cd1a922',
  '0053-default-password-provider-audit': '78ca2f88627c4042',
  '0054-links-in-their-users-pools': '4e20bab40cc51f7d',
  '0055-invitation-client': '2a3872de84fd0663',
  '0056-saml-subject-users': '6483070f91233a00',
  '0057-oauth-client-initiate-login-uri': '58d8faf734de7039',
  '0058-link-openers': 'd4926796e3aa1e9b',
  '0059-invitation-codes': 'e3cb63da7a0b45d8',
  '0060-api-resource-identifiers-held-elsewhere': '48032a4c3ec310a2',
  '0061-passkey-cloned-notice-in-mfa-enrolled': 'bb5e2bd9d7d7edb6',
  '0062-analytics-active-user-by-user': 'f557351580dbfcf0',
  '0063-edited-migrations-catch-up': '5eddd0d5c6f69bca',
  '0064-device-user-code-unique': '34f6f97ff2b8a133',
  '0065-oauth-client-allowed-origins': '1cc2734d3ab5fdb2',
  '0066-auth-provider-configured-by': '5bb0df8a5e32fb49',
  '0067-audit-log-api-key': '3aaa299353af290a',
  '0068-user-vouched-by-tenant': 'f0adc5ff393a2332',
  '0069-domain-recheck': '47a52bb58ec310f9',
  '0070-audit-log-member-tenants': 'c3b12743e1978a5f',
  '0071-email-delivery-recipient-key': 'b10270afaa6232d6',
  '0072-email-sender-domain-recheck': '24492a976a5e85fa',
  '0073-deferred-mail': '75d367840aeb6640',
  '0074-interaction-login-lookup': '2f4eac0d671e8467',
  '0075-user-sign-ins-ended': 'd1b0e8b78ff51359',
  '0076-email-delivery-withdrawn': '3af86a97fdc52d5d',
  '0077-passkeys-in-their-users-pools': '0f71efdbc0800a73',
  '0078-enrolment-links': 'b402f4c330e36194',
  '0079-tenant-mfa-override-removed': '6be47ecc6c71fc2f',
  '0080-copied-secrets-spent-together': 'd9cd69de766b2d55',
  '0081-email-delivery-user': 'e0980be85fab5031',
  '0082-address-restore-links': '1368727f6cd85f89',
  '0083-email-delivery-link-expiry': '892c20a3286e8ec9',
  '0084-restore-earlier-passwords': '07ed776c2a690edd',
  '0085-pool-user-keys-in-their-tenant': 'd24218643f26cc1d',
  '0086-deleted-application-retention': '0ba41a47f9a90ea0',
  '0087-end-tenant-links-of-wider-accounts': 'e02539eb93a5c909',
  '0088-saml-request-freshness': '9f150f0f7fa4d884',
};

const printer = ts.createPrinter({ removeComments: true });

/** The code as TypeScript reads it, without its comments or SQL's whole-line `--` ones, whitespace collapsed. */
function digest(source: string): string {
  const code = printer.printFile(ts.createSourceFile('migration.ts', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return createHash('sha256')
    .update(code.replace(/^\s*--.*$/gm, '').replace(/\s+/g, ' ').trim())
    .digest('hex')
    .slice(0, 16);
}

const sourceOf = (name: string) => readFileSync(new URL(`../../src/db/migrations/${name}.ts`, import.meta.url), 'utf8');

describe('released migrations', () => {
  it('are never edited: add a new one', () => {
    const edited = MIGRATIONS.filter(({ name }) => name in RELEASED && digest(sourceOf(name)) !== RELEASED[name]).map(({ name }) => name);
    expect(edited, 'a migration that has been released is never edited: add a new one').toEqual([]);
  });

  it('are all listed, and none is removed or renamed', () => {
    expect(MIGRATIONS.map(({ name }) => name), 'list a new migration in RELEASED as it is written; a released one stays').toEqual(Object.keys(RELEASED));
  });

  it('are told apart by their code, not by their comments or layout', () => {
    const migration = (body: string) => `import { Migration } from '@mikro-orm/migrations';\n${body}`;
    const released = migration(`/** Why. */\nexport class M extends Migration {\n  override up(): void {\n    this.addSql(\`\n      create index a on t (x);\n    \`);\n  }\n}\n`);
    const commented = migration(`/**\n * Why, said again.\n */\nexport class M extends Migration {\n  // how\n  override up(): void {\n    this.addSql(\`\n      -- the lookup\n      create index a on t (x);\n    \`);\n  }\n}\n`);
    const edited = migration(`/** Why. */\nexport class M extends Migration {\n  override up(): void {\n    this.addSql(\`\n      create index a on t (x);\n      create index b on t (y);\n    \`);\n  }\n}\n`);
    expect(digest(commented)).toBe(digest(released));
    expect(digest(edited)).not.toBe(digest(released));
  });
});
