import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { BaseLogger } from 'pino';
import type { Config } from './config.ts';
import { bootstrapIfEmpty } from './domain/bootstrap.ts';

/**
 * On an empty database: an organization, a multi-tenant application and an `app_admin` key, printed once. Done by the
 * one serving process (WORKERS=1), or before the workers start (src/prepare.ts).
 */
export async function bootstrapOnFirstStart(orm: MikroORM, config: Config, log: Pick<BaseLogger, 'info'>): Promise<void> {
  const result = await bootstrapIfEmpty(orm, { apiKeySecret: config.bootstrapApiKey, requestId: randomUUID() });
  if (result === undefined) return;
  const { apiKey, ...ids } = result;
  log.info(ids, 'bootstrapped an organization and a multi-tenant application');
  if (config.bootstrapApiKey === undefined) {
    // Printed once, on purpose: it is the only way to the first key. It is not stored in clear anywhere.
    process.stdout.write(`\nBootstrap API key (app_admin, shown once): ${apiKey}\n\n`);
  }
}
