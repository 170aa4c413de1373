import { useContext, useId } from 'react';
import { EMPTY_PERMISSION_ROW } from '../api-resource-draft.ts';
import { listMarks, RefusedField, refusalMarks } from '../hooks/use-refused-field.ts';
import { permissionRowField, type DefinedPermissions, type PermissionRow } from '../operations-api-resources.ts';

interface PermissionRowsProps {
  rows: readonly PermissionRow[];
  /** The application's own permissions: a row naming one shows its description, which the API does not change. */
  defined: DefinedPermissions;
  onChange: (rows: readonly PermissionRow[]) => void;
}

/** An API resource's permissions, a row of key and description each, added and removed; a refusal marks its row's input
 *  (`permissionRowField`), or the rows (`permissions`). */
export function PermissionRows({ rows, defined, onChange }: PermissionRowsProps) {
  const id = useId();
  const refusal = useContext(RefusedField);
  const set = (at: number, row: PermissionRow) => onChange(rows.map((each, index) => (index === at ? row : each)));
  return (
    <fieldset className="permission-rows" {...listMarks(refusal, 'permissions')}>
      <legend>Permissions</legend>
      <p id={`${id}-hint`} className="hint">
        Keys as resource:action (lower-case letters, digits, _ or -). A key the application does not define yet is
        created with its description; one it defines keeps its own, and stays the application’s when removed here.
      </p>
      <datalist id={`${id}-keys`}>
        {[...defined.keys()].map((key) => <option key={key} value={key} />)}
      </datalist>
      {rows.map((row, at) => {
        const number = at + 1;
        const description = defined.get(row.key.trim());
        return (
          // A row has no identity of its own but its place: a blank one may become any key.
          <div key={at} className="inline-form">
            <div>
              <label htmlFor={`${id}-${at}-key`}>{`Permission ${number}`}</label>
              <input
                id={`${id}-${at}-key`}
                type="text"
                list={`${id}-keys`}
                spellCheck={false}
                autoComplete="off"
                {...refusalMarks(refusal, permissionRowField(at, 'key'), `${id}-hint`)}
                value={row.key}
                onChange={(event) => set(at, { ...row, key: event.target.value })}
              />
            </div>
            <div>
              <label htmlFor={`${id}-${at}-description`}>{`Description ${number}`}</label>
              <input
                id={`${id}-${at}-description`}
                type="text"
                readOnly={description !== undefined}
                {...refusalMarks(refusal, permissionRowField(at, 'description'))}
                value={description ?? row.description}
                onChange={(event) => set(at, { ...row, description: event.target.value })}
              />
            </div>
            <button type="button" className="small" onClick={() => onChange(rows.filter((_, index) => index !== at))}>
              Remove<span className="visually-hidden">{` permission ${number}`}</span>
            </button>
          </div>
        );
      })}
      <div>
        <button type="button" className="small" onClick={() => onChange([...rows, EMPTY_PERMISSION_ROW])}>Add permission</button>
      </div>
    </fieldset>
  );
}
