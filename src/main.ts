import { randomUUID } from 'node:crypto';
import { startGatehouse } from './app.ts';
import { loadConfig } from './config.ts';
import { bootstrap, isEmpty } from './domain/bootstrap.ts';

/** Entry: config → database (migrated) → server.listen → bootstrap on an empty database. */
const config = loadConfig();
const gatehouse = await startGatehouse(config);
const log = gatehouse.server.app.log;

await gatehouse.server.app.listen({ port: config.port, host: config.host });
if (await isEmpty(gatehouse.services.orm)) {
  const result = await bootstrap(gatehouse.services.orm, { apiKeySecret: config.bootstrapApiKey, requestId: randomUUID() });
  const { apiKey, ...ids } = result;
  log.info(ids, 'bootstrapped an organization and a multi-tenant application');
  if (config.bootstrapApiKey === undefined) {
    // Printed once, on purpose: it is the only way to the first key. It is not stored in clear anywhere.
    process.stdout.write(`\nBootstrap API key (app_admin, shown once): ${apiKey}\n\n`);
  }
}
log.info(
  { graphql: `${config.publicUrl}/graphql`, rest: `${config.publicUrl}/api/v1`, database: gatehouse.database.embedded ? 'embedded' : 'postgresql' },
  `Gatehouse is listening; GraphQL playground at ${config.publicUrl}/graphql`,
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    gatehouse.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
