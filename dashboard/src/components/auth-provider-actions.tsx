import { useAction } from '../hooks/use-action.ts';
import { useConfirmedAction } from '../hooks/use-confirmed-action.ts';
import { deleteAuthProvider, updateAuthProvider } from '../operations-auth.ts';
import type { AuthProvider } from '../operations-email-auth.ts';
import type { SettingsScope } from '../operations.ts';
import { ErrorMessage } from './status.tsx';

interface AuthProviderActionsProps {
  scope: SettingsScope;
  provider: AuthProvider;
  onEdit: () => void;
  /** Reads the providers again after a change. */
  onChanged: () => Promise<void>;
}

/** A provider's Edit, Enable or Disable, and Delete once confirmed, with a refusal's message. */
export function AuthProviderActions({ scope, provider, onEdit, onChanged }: AuthProviderActionsProps) {
  const toggle = useAction(async () => {
    await updateAuthProvider(scope, provider.id, { enabled: !provider.enabled });
    await onChanged();
  });
  const removal = useConfirmedAction();
  const remove = () =>
    removal.run(`Delete the ${provider.name} provider? Its users can no longer sign in with it.`, async () => {
      await deleteAuthProvider(scope, provider.id);
      await onChanged();
    });
  const failure = toggle.failure ?? removal.failure;
  return (
    <>
      <button type="button" className="small" onClick={onEdit}>Edit</button>
      <button type="button" className="small" disabled={toggle.busy} onClick={() => toggle.run()}>{provider.enabled ? 'Disable' : 'Enable'}</button>
      <button type="button" className="small" disabled={removal.busy} onClick={remove}>Delete</button>
      {failure !== null && <ErrorMessage message={failure} />}
    </>
  );
}
