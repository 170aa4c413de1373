import { enabledWords } from '../auth-provider-kinds.ts';
import { useAction } from '../hooks/use-action.ts';
import { useConfirmedAction } from '../hooks/use-confirmed-action.ts';
import { deleteAuthProvider, rotateSamlSpKey, SP_KEY_GRACE_DAYS, updateAuthProvider, type SamlSpKey } from '../operations-auth.ts';
import type { AuthProvider } from '../operations-email-auth.ts';
import type { SettingsScope } from '../operations.ts';
import { leavesNoSignIn } from '../sign-in-providers.ts';
import { ErrorMessage } from './status.tsx';

/** Said before a change that leaves the scope no enabled way to sign in. */
const NO_WAY_IN = 'It is the last enabled way to sign in here: nobody can sign in until another provider is enabled.';

interface AuthProviderActionsProps {
  scope: SettingsScope;
  provider: AuthProvider;
  /** The scope's providers shown beside it, to warn before the last way to sign in goes. */
  providers: readonly AuthProvider[];
  onEdit: () => void;
  /** The provider is deleted: its edit panel goes, unasked. */
  onDeleted: () => void;
  /** Reads the providers again after a change. */
  onChanged: () => Promise<void>;
  /** A SAML provider's new SP key, to show. */
  onRotated: (spKey: SamlSpKey) => void;
}

/**
 * A provider's Edit, Enable or Disable, a SAML provider's Rotate SP key, and Delete, the last two once confirmed (and a
 * Disable that leaves no way to sign in), with a refusal's message.
 */
export function AuthProviderActions({ scope, provider, providers, onEdit, onDeleted, onChanged, onRotated }: AuthProviderActionsProps) {
  const switchOver = async () => {
    await updateAuthProvider(scope, provider.id, { enabled: !provider.enabled });
    await onChanged();
  };
  const toggle = useAction(switchOver);
  const confirmed = useConfirmedAction();
  const flip = () => {
    if (leavesNoSignIn(providers, provider, 'disable')) confirmed.run(`Disable the ${provider.name} provider? ${NO_WAY_IN}`, switchOver);
    else toggle.run();
  };
  const rotate = () =>
    confirmed.run(
      `Rotate the SP key of ${provider.name}? The new key signs sign-in requests at once; the current one keeps decrypting assertions and stays in the metadata for ${SP_KEY_GRACE_DAYS} days, time to register the new certificate at the identity provider.`,
      async () => onRotated(await rotateSamlSpKey(scope, provider.id)),
    );
  const lastWayIn = leavesNoSignIn(providers, provider, 'delete') ? ` ${NO_WAY_IN}` : '';
  const remove = () =>
    confirmed.run(`Delete the ${provider.name} provider? Its users can no longer sign in with it.${lastWayIn}`, async () => {
      await deleteAuthProvider(scope, provider.id);
      onDeleted();
      await onChanged();
    });
  const failure = toggle.failure ?? confirmed.failure;
  return (
    <>
      <button type="button" className="small" onClick={onEdit}>Edit</button>
      <button type="button" className="small" disabled={toggle.busy || confirmed.busy} onClick={flip}>
        {enabledWords(provider.type).toggle(provider.enabled)}
      </button>
      {provider.type === 'saml' && <button type="button" className="small" disabled={confirmed.busy} onClick={rotate}>Rotate SP key</button>}
      <button type="button" className="small" disabled={confirmed.busy} onClick={remove}>Delete</button>
      {failure !== null && <ErrorMessage message={failure} />}
    </>
  );
}
