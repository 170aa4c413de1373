import { dropRunDatabases } from './database.ts';

/** `node test/support/drop-run-databases.ts {run}`: drops what a finished vitest run left on TEST_DATABASE_URL (global-setup.ts). */
await dropRunDatabases(process.argv[2] ?? '');
