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
  /** Whether Edit, Enable or Disable and Rotate SP key are offered (`auth_providers:write`). */
  editable: boolean;
  /** Whether Delete is offered (`auth_providers:delete`). */
  deletable: boolean;
  onEdit: () => void;
  /** The provider is deleted: its edit panel goes, unasked. */
  onDeleted: () => void;
  onChanged: () => Promise<void>;
  onRotated: (spKey: SamlSpKey) => void;
}

/** Delete and Rotate SP key (and a Disable that leaves no way to sign in) are confirmed first. */
export function AuthProviderActions({ scope, provider, providers, editable, deletable, onEdit, onDeleted, onChanged, onRotated }: AuthProviderActionsProps) {
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
      {editable && (
        <>
          <button type="button" className="small" onClick={onEdit}>Edit</button>
          <button type="button" className="small" disabled={toggle.busy || confirmed.busy} onClick={flip}>
            {enabledWords(provider.type).toggle(provider.enabled)}
          </button>
          {provider.type === 'saml' && <button type="button" className="small" disabled={confirmed.busy} onClick={rotate}>Rotate SP key</button>}
        </>
      )}
      {deletable && <button type="button" className="small" disabled={confirmed.busy} onClick={remove}>Delete</button>}
      {failure !== null && <ErrorMessage message={failure} />}
    </>
  );
}
