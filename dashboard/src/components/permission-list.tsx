/** Up to this many permissions show in a row; more fold under their count. */
const SHOWN_PERMISSIONS = 5;

export function PermissionList({ permissions }: { permissions: readonly string[] }) {
  if (permissions.length === 0) return <>None</>;
  const list = permissions.map((key) => <code key={key}>{key}</code>);
  if (permissions.length <= SHOWN_PERMISSIONS) return <span className="permission-list">{list}</span>;
  return (
    <details>
      <summary>{`${permissions.length} permissions`}</summary>
      <span className="permission-list">{list}</span>
    </details>
  );
}
