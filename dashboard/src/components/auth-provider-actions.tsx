import { useAction } from '../hooks/use-action.ts';
import { useConfirmedAction } from '../hooks/use-confirmed-action.ts';
import { deleteAuthProvider, rotateSamlSpKey, SP_KEY_GRACE_DAYS, updateAuthProvider, type SamlSpKey } from '../operations-auth.ts';
import type { AuthProvider } from '../operations-email-auth.ts';
import type { SettingsScope } from '../operations.ts';
import { ErrorMessage } from './status.tsx';

interface AuthProviderActionsProps {
  scope: SettingsScope;
  provider: AuthProvider;
  onEdit: () => void;
  /** Reads the providers again after a change. */
  onChanged: () => Promise<void>;
  /** A SAML provider's new SP key, to show. */
  onRotated: (spKey: SamlSpKey) => void;
}

/** A provider's Edit, Enable or Disable, a SAML provider's Rotate SP key, and Delete, the last two once confirmed, with a refusal's message. */
export function AuthProviderActions({ scope, provider, onEdit, onChanged, onRotated }: AuthProviderActionsProps) {
  const toggle = useAction(async () => {
    await updateAuthProvider(scope, provider.id, { enabled: !provider.enabled });
    await onChanged();
  });
  const confirmed = useConfirmedAction();
  const rotate = () =>
    confirmed.run(
      `Rotate the SP key of ${provider.name}? The new key signs sign-in requests at once; the current one keeps decrypting assertions and stays in the metadata for ${SP_KEY_GRACE_DAYS} days, time to register the new certificate at the identity provider.`,
      async () => onRotated(await rotateSamlSpKey(scope, provider.id)),
    );
  const remove = () =>
    confirmed.run(`Delete the ${provider.name} provider? Its users can no longer sign in with it.`, async () => {
      await deleteAuthProvider(scope, provider.id);
      await onChanged();
    });
  const failure = toggle.failure ?? confirmed.failure;
  return (
    <>
      <button type="button" className="small" onClick={onEdit}>Edit</button>
      <button type="button" className="small" disabled={toggle.busy} onClick={() => toggle.run()}>{provider.enabled ? 'Disable' : 'Enable'}</button>
      {provider.type === 'saml' && <button type="button" className="small" disabled={confirmed.busy} onClick={rotate}>Rotate SP key</button>}
      <button type="button" className="small" disabled={confirmed.busy} onClick={remove}>Delete</button>
      {failure !== null && <ErrorMessage message={failure} />}
    </>
  );
}
