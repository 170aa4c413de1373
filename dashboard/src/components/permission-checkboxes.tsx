import { useRefusedListMarks } from '../hooks/use-refused-field.ts';
import type { Permission } from '../operations-roles.ts';
import { actionOf, groupByResource } from '../permission-groups.ts';

interface PermissionCheckboxesProps {
  /** The permissions offered, in display order. */
  options: readonly Permission[];
  checked: readonly string[];
  onChange: (checked: readonly string[]) => void;
}

/** A checkbox per permission, grouped by resource: each group a fieldset named by its resource, each box by its action. */
export function PermissionCheckboxes({ options, checked, onChange }: PermissionCheckboxesProps) {
  const marks = useRefusedListMarks('permissions');
  const toggle = (key: string, on: boolean) => onChange(on ? [...checked, key] : checked.filter((grant) => grant !== key));
  return (
    <fieldset className="permissions" {...marks}>
      <legend>Permissions</legend>
      {groupByResource(options).map((group) => (
        <fieldset key={group.resource}>
          <legend>{group.resource}</legend>
          {group.permissions.map((permission) => (
            <label key={permission.key} title={permission.description === '' ? undefined : permission.description}>
              <input type="checkbox" checked={checked.includes(permission.key)} onChange={(event) => toggle(permission.key, event.target.checked)} />
              {actionOf(permission.key)}
            </label>
          ))}
        </fieldset>
      ))}
    </fieldset>
  );
}
