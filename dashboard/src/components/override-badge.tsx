import type { OverrideRemoval } from '../hooks/use-override-removal.ts';
import type { Source } from '../operations.ts';
import { SOURCE_LABEL, type TenantOverride } from '../tenant-features.ts';
import { ErrorMessage } from './status.tsx';

interface OverrideBadgeProps {
  source: Source;
  /** What "Remove tenant override" would remove; absent where it is not offered here. */
  override?: TenantOverride;
  removal: OverrideRemoval;
}

/** A tenant's "Inherited" or "Customized" badge, "Remove tenant override" while customized, and a failed removal's message. */
export function OverrideBadge({ source, override, removal }: OverrideBadgeProps) {
  return (
    <>
      <span className={`badge ${source}`}>{SOURCE_LABEL[source]}</span>
      {source === 'customized' && override !== undefined && (
        <button type="button" className="small" disabled={removal.busy} onClick={() => removal.remove(override)}>
          Remove tenant override<span className="visually-hidden">{` of ${removal.tenantName}'s ${override.label}`}</span>
        </button>
      )}
      {override !== undefined && removal.failure?.label === override.label && <ErrorMessage message={removal.failure.message} />}
    </>
  );
}
