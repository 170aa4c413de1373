import { ErrorMessage } from '../components/status.tsx';
import { Timestamp } from '../components/timestamp.tsx';
import { apiKeyStatus } from '../api-key-status.ts';
import { useConfirmedAction } from '../hooks/use-confirmed-action.ts';
import { revokeApiKey, rotateApiKey, type ApiKey, type ApiKeyWithSecret, type ListedApiKey } from '../operations-api-keys.ts';
import { offersAny } from '../operations-own-permissions.ts';
import { permissionsLabel } from '../permission-groups.ts';

/** The row actions the operator's permissions open; none: no Actions column. */
export interface KeyActions {
  readonly roles: boolean;
  readonly rotate: boolean;
  readonly revoke: boolean;
}

interface ApiKeyRowProps {
  appId: string;
  apiKey: ListedApiKey;
  onRotated: (rotated: ApiKeyWithSecret) => void;
  onRevoked: (revoked: ApiKey) => void;
  offers: KeyActions;
  /** Whether its roles panel is the one open. */
  rolesOpen: boolean;
  onRoles: (apiKey: ListedApiKey) => void;
}

/** One key: who it is for, what it may do, its dates and status, and Roles, Rotate and Revoke while they apply and are offered. */
export function ApiKeyRow({ appId, apiKey, onRotated, onRevoked, offers, rolesOpen, onRoles }: ApiKeyRowProps) {
  const action = useConfirmedAction();
  const status = apiKeyStatus(apiKey);

  const rotate = () =>
    action.run(`Rotate the API key “${apiKey.name}”? Its current secret stops working at once.`, async () => {
      onRotated(await rotateApiKey(appId, apiKey.id));
    });
  const revoke = () =>
    action.run(`Revoke the API key “${apiKey.name}”? It stops working at once, for good.`, async () => {
      onRevoked(await revokeApiKey(appId, apiKey.id));
    });

  return (
    <tr>
      <th scope="row">
        {apiKey.name}
        {apiKey.userEmail !== null && <span className="acts-as">{`Acts as ${apiKey.userEmail}`}</span>}
      </th>
      <td>{apiKey.tenantName ?? 'Application'}</td>
      <td>{permissionsLabel(apiKey.permissions)}</td>
      <td><Timestamp value={apiKey.createdAt} /></td>
      <td>{apiKey.expiresAt === null ? 'Never' : <Timestamp value={apiKey.expiresAt} />}</td>
      <td>{apiKey.lastRotatedAt === null ? 'Never' : <Timestamp value={apiKey.lastRotatedAt} />}</td>
      <td>{status}</td>
      {offersAny(offers) && (
        <td>
          {offers.roles && status === 'Active' && (
            <button type="button" className="small" aria-pressed={rolesOpen} onClick={() => onRoles(apiKey)}>
              Roles<span className="visually-hidden">{` of ${apiKey.name}`}</span>
            </button>
          )}
          {offers.rotate && status === 'Active' && <button type="button" className="small" disabled={action.busy} onClick={rotate}>Rotate</button>}
          {offers.revoke && status !== 'Revoked' && <button type="button" className="small" disabled={action.busy} onClick={revoke}>Revoke</button>}
          {action.failure !== null && <ErrorMessage message={action.failure} />}
        </td>
      )}
    </tr>
  );
}
