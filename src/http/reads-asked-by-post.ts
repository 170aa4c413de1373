/**
 * Mutations (POST over REST) that only read: their answer is of the moment, as a GET's, so `Idempotency-Key` is not
 * used on them. A replay would tell a key revoked since that it is active, a role revoked since that it is held.
 * Root field names.
 */
export const READS_ASKED_BY_POST: ReadonlySet<string> = new Set([
  'introspectApiKey',
  'validateSession',
  'checkPermission',
  'bulkCheckPermissions',
  'checkRole',
  'previewEmailTemplate',
]);
