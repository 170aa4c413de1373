import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { BaseLogger } from 'pino';
import { hashPassword } from '../auth/password-hash.ts';
import { ConfigError, type Config } from '../config.ts';
import { bootstrapIfEmpty } from '../domain/bootstrap.ts';
import { ensureConsoles, laterOperatorLinks, type FirstOperator } from '../domain/console/console.ts';
import { dashboardUrl } from '../domain/console/dashboard-client.ts';
import { POLICY_DEFAULTS } from '../domain/policies/definitions.ts';
import { checkPassword } from '../domain/policies/password.ts';
import { email as emailAddress } from '../domain/validate.ts';

/**
 * On an empty database: an organization, an application and an `app_admin` key, printed once. At every start: each
 * organization's console, and its first operator while it has none. By the one serving process, or src/process/prepare.ts.
 */
export async function bootstrapOnFirstStart(orm: MikroORM, config: Config, log: Pick<BaseLogger, 'info'>): Promise<void> {
  const requestId = randomUUID();
  // Checked before the bootstrap: a start refused after it would have made the key that only it prints.
  const configured = await firstOperator(config);
  const result = await bootstrapIfEmpty(orm, { apiKeySecret: config.bootstrapApiKey, requestId });
  const operator = await ensureConsoles(orm, config.publicUrl, requestId, configured);
  if (operator !== null) {
    log.info({ email: operator.email }, `the first operator signs in to the dashboard at ${dashboardUrl(config.publicUrl)}`);
    // Printed, never logged: it sets the password of an account that can manage everything.
    if (operator.passwordLink !== null) {
      process.stdout.write(`\nFirst operator ${operator.email}: set the password within 30 minutes at\n${operator.passwordLink}\n(a restart prints another link while none is set)\n\n`);
    }
  }
  for (const later of await laterOperatorLinks(orm, config.publicUrl, requestId)) {
    process.stdout.write(
      `\nFirst operator ${later.email} of organization ${later.organizationId}: set the password within 30 minutes at\n${later.passwordLink ?? ''}\n` +
        `then sign in at ${dashboardUrl(config.publicUrl)}?organization=${later.organizationId}\n\n`,
    );
  }
  if (result === undefined) return;
  const { apiKey, ...ids } = result;
  log.info(ids, 'bootstrapped an organization and a multi-tenant application');
  if (config.bootstrapApiKey === undefined) {
    // The only way to the first key; it is not stored in clear anywhere.
    process.stdout.write(`\nBootstrap API key (app_admin, shown once): ${apiKey}\n\n`);
  }
}

/** A first operator's password meets the console's default policy, or the start fails. */
async function firstOperator(config: Config): Promise<FirstOperator | undefined> {
  if (config.bootstrapAdmin === undefined) return undefined;
  try {
    emailAddress('GATEHOUSE_BOOTSTRAP_ADMIN_EMAIL', config.bootstrapAdmin.email);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const violations = checkPassword(POLICY_DEFAULTS.password, config.bootstrapAdmin.password);
  if (violations.length > 0) {
    throw new ConfigError(`GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD: ${violations.map((violation) => violation.message).join('; ')}`);
  }
  return { email: config.bootstrapAdmin.email, passwordHash: await hashPassword(config.bootstrapAdmin.password) };
}
