import { CopyableValue } from '../components/copyable-value.tsx';
import { ErrorMessage } from '../components/status.tsx';
import { Timestamp } from '../components/timestamp.tsx';
import { useConfirmedAction } from '../hooks/use-confirmed-action.ts';
import { AUTH_METHOD_LABEL, usesSecret } from '../m2m-auth-methods.ts';
import { revokeM2MCredential, rotateM2MCredential, type M2MCredential, type M2MCredentialWithSecret } from '../operations-m2m-credentials.ts';
import { rotationQuestion } from '../operations-oauth-clients.ts';
import { offersAny } from '../operations-own-permissions.ts';
import { permissionsLabel } from '../permission-groups.ts';

/** The row actions the operator's permissions open: Rotate stands for Replace keys too (both write the credential). */
export interface CredentialActions {
  readonly roles: boolean;
  readonly rotate: boolean;
  readonly revoke: boolean;
}

interface M2MCredentialRowProps {
  appId: string;
  credential: M2MCredential;
  /** Where it belongs: "Application-wide", or its tenant's name. */
  placeName: string;
  onRotated: (rotated: M2MCredentialWithSecret) => void;
  onRevoked: (revoked: M2MCredential) => void;
  onEditKeys: (credential: M2MCredential) => void;
  offers: CredentialActions;
  /** Whether its roles panel is the one open. */
  rolesOpen: boolean;
  onRoles: (credential: M2MCredential) => void;
}

/** One credential: its client_id to copy, tenant, permissions, method, status; Roles, Rotate or Replace keys, and Revoke, while valid and offered. */
export function M2MCredentialRow({ appId, credential, placeName, onRotated, onRevoked, onEditKeys, offers, rolesOpen, onRoles }: M2MCredentialRowProps) {
  const action = useConfirmedAction();
  const active = credential.revokedAt === null;
  const rotate = () => action.run(rotationQuestion(credential.name), async () => onRotated(await rotateM2MCredential(appId, credential.clientId)));
  const revoke = () =>
    action.run(`Revoke ${credential.name}? It gets no more tokens, and the tokens it holds stop working at once, for good.`, async () =>
      onRevoked(await revokeM2MCredential(appId, credential.clientId)),
    );

  return (
    <tr>
      <th scope="row">{credential.name}</th>
      <td>
        <CopyableValue label={`client_id of ${credential.name}`} value={credential.clientId} />
      </td>
      <td>{placeName}</td>
      <td>{permissionsLabel(credential.permissions)}</td>
      <td>{AUTH_METHOD_LABEL[credential.authMethod]}</td>
      <td><Timestamp value={credential.createdAt} /></td>
      <td>{active ? 'Active' : 'Revoked'}</td>
      {offersAny(offers) && (
        <td className="actions">
          {active && offers.roles && (
            <button type="button" className="small" aria-pressed={rolesOpen} onClick={() => onRoles(credential)}>
              Roles<span className="visually-hidden">{` of ${credential.name}`}</span>
            </button>
          )}
          {active && offers.rotate && usesSecret(credential.authMethod) && <button type="button" className="small" disabled={action.busy} onClick={rotate}>Rotate</button>}
          {active && offers.rotate && !usesSecret(credential.authMethod) && (
            <button type="button" className="small" onClick={() => onEditKeys(credential)}>Replace keys</button>
          )}
          {active && offers.revoke && <button type="button" className="small" disabled={action.busy} onClick={revoke}>Revoke</button>}
          {action.failure !== null && <ErrorMessage message={action.failure} />}
        </td>
      )}
    </tr>
  );
}
