import type { ApiResource } from '../operations-api-resources.ts';

/** On a resource whose identifier another application registered first (migration 0060): why its grants are refused. */
export function IdentifierHeldElsewhere({ resource }: { resource: ApiResource }) {
  if (!resource.identifierHeldElsewhere) return null;
  return (
    <p className="warning">
      Another application registered this identifier first: tokens for it are refused (invalid_target). Type the
      identifier again and save once it is free, or choose another.
    </p>
  );
}
