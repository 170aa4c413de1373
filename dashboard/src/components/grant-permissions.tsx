import { useId } from 'react';
import { useRefusedListMarks } from '../hooks/use-refused-field.ts';
import type { GrantablePermission } from '../operations-grants.ts';
import { ALL_PERMISSIONS } from '../permission-groups.ts';

interface GrantPermissionsProps {
  /** What is given them, as the hint names it: "key", "credential". */
  holder: string;
  permissions: readonly GrantablePermission[];
  checked: readonly string[];
  onChange: (checked: readonly string[]) => void;
}

/** The grants a new credential may carry: "All permissions" (`*`), or built-in permissions one by one. */
export function GrantPermissions({ holder, permissions, checked, onChange }: GrantPermissionsProps) {
  const id = useId();
  const marks = useRefusedListMarks('permissions');
  const all = checked.includes(ALL_PERMISSIONS);
  const toggle = (key: string, on: boolean) => onChange(on ? [...checked, key] : checked.filter((grant) => grant !== key));
  return (
    <fieldset className="key-permissions" {...marks}>
      <legend>Permissions</legend>
      <p className="hint">{`The ${holder} may do only what it is given, and you may give only permissions you hold yourself.`}</p>
      <label className="all-permissions">
        <input type="checkbox" checked={all} onChange={(event) => onChange(event.target.checked ? [ALL_PERMISSIONS] : [])} />
        All permissions
      </label>
      <div className="permission-grid">
        {permissions.map((permission) => (
          <div key={permission.key}>
            <input
              id={`${id}-${permission.key}`}
              type="checkbox"
              disabled={all}
              checked={!all && checked.includes(permission.key)}
              aria-describedby={`${id}-${permission.key}-description`}
              onChange={(event) => toggle(permission.key, event.target.checked)}
            />
            <label htmlFor={`${id}-${permission.key}`}><code>{permission.key}</code></label>
            <span id={`${id}-${permission.key}-description`} className="hint">{permission.description}</span>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
