import { useId } from 'react';
import { ALL_PERMISSIONS, type GrantablePermission } from '../operations-api-keys.ts';

interface ApiKeyPermissionsProps {
  permissions: readonly GrantablePermission[];
  checked: readonly string[];
  onChange: (checked: readonly string[]) => void;
}

/** The grants a new key may carry: "All permissions" (`*`), or built-in permissions one by one. */
export function ApiKeyPermissions({ permissions, checked, onChange }: ApiKeyPermissionsProps) {
  const id = useId();
  const all = checked.includes(ALL_PERMISSIONS);
  const toggle = (key: string, on: boolean) => onChange(on ? [...checked, key] : checked.filter((grant) => grant !== key));
  return (
    <fieldset className="key-permissions">
      <legend>Permissions</legend>
      <p className="hint">The key may do only what it is given, and you may give only permissions you hold yourself.</p>
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
