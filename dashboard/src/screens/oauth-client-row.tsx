import { CopyableValue } from '../components/copyable-value.tsx';
import { ErrorMessage } from '../components/status.tsx';
import { useAction } from '../hooks/use-action.ts';
import { CLIENT_TYPES } from '../oauth-client-types.ts';
import { placeName } from '../role-choices.ts';
import {
  deleteOAuthClient,
  rotateOAuthClientSecret,
  rotationQuestion,
  type ClientsContext,
  type OAuthClient,
  type OAuthClientWithSecret,
} from '../operations-oauth-clients.ts';
import { offersAny } from '../operations-own-permissions.ts';

/** The row actions the operator's permissions open: Edit stands for Rotate secret too (both write the client). */
export interface ClientActions {
  readonly edit: boolean;
  readonly delete: boolean;
}

interface OAuthClientRowProps {
  appId: string;
  client: OAuthClient;
  context: ClientsContext;
  offers: ClientActions;
  onEdit: (client: OAuthClient) => void;
  onRotated: (client: OAuthClientWithSecret) => void;
  onDeleted: (client: OAuthClient) => void;
}

/** One client: name, type, client_id to copy, redirect URIs, tenant; Edit, Rotate secret (web clients) and Delete, the last two once confirmed, as offered. */
export function OAuthClientRow({ appId, client, context, offers, onEdit, onRotated, onDeleted }: OAuthClientRowProps) {
  const rotate = useAction(async () => {
    if (!window.confirm(rotationQuestion(client.name))) return;
    onRotated(await rotateOAuthClientSecret(appId, client.clientId));
  });
  const remove = useAction(async () => {
    if (!window.confirm(`Delete ${client.name}? Its client_id stops working at once: the app using it can no longer sign anyone in.`)) return;
    await deleteOAuthClient(appId, client.clientId);
    onDeleted(client);
  });
  const failure = rotate.failure ?? remove.failure;

  return (
    <tr>
      <th scope="row">{client.name}</th>
      <td>{CLIENT_TYPES[client.type].label}</td>
      <td>
        <CopyableValue label={`client_id of ${client.name}`} value={client.clientId} />
      </td>
      <td>
        {client.redirectUris.length === 0 ? (
          'None'
        ) : (
          <ul className="uris">
            {client.redirectUris.map((uri) => <li key={uri}><code>{uri}</code></li>)}
          </ul>
        )}
      </td>
      {context.multiTenant && <td>{placeName(context, client.tenantId)}</td>}
      {offersAny(offers) && (
        <td className="actions">
          {offers.edit && <button type="button" className="small" onClick={() => onEdit(client)}>Edit</button>}
          {offers.edit && CLIENT_TYPES[client.type].confidential && (
            <button type="button" className="small" disabled={rotate.busy} onClick={() => rotate.run()}>Rotate secret</button>
          )}
          {offers.delete && <button type="button" className="small" disabled={remove.busy} onClick={() => remove.run()}>Delete</button>}
          {failure !== null && <ErrorMessage message={failure} />}
        </td>
      )}
    </tr>
  );
}
