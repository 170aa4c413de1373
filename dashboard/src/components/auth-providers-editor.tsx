import { useState } from 'react';
import { useOpenRow } from '../hooks/use-open-row.ts';
import { UnsavedParts, useUnsavedPart } from '../hooks/use-unsaved-changes.ts';
import type { SamlSpKey } from '../operations-auth.ts';
import type { AuthProvider } from '../operations-email-auth.ts';
import type { SettingsScope } from '../operations.ts';
import { AuthProviderActions } from './auth-provider-actions.tsx';
import { AuthProvidersTable } from './auth-providers-table.tsx';
import { EditAuthProvider } from './edit-auth-provider.tsx';
import { RotatedSpKey } from './rotated-sp-key.tsx';
import { UnlistedRow } from './unlisted-row.tsx';

interface AuthProvidersEditorProps {
  scope: SettingsScope;
  providers: readonly AuthProvider[];
  /**
   * Whether the operator may change a provider here (Edit, Enable or Disable, Rotate SP key): a tenant only its own,
   * not those it inherits.
   */
  editable: (provider: AuthProvider) => boolean;
  /** Whether the operator may delete it here, on the same terms. */
  deletable: (provider: AuthProvider) => boolean;
  /** Reads the providers again after a change. */
  onChanged: () => Promise<void>;
}

/**
 * The providers' table with the buttons of those the scope may change, a SAML provider's new SP key once rotated, and
 * the edit form of the one being edited.
 */
export function AuthProvidersEditor({ scope, providers, editable, deletable, onChanged }: AuthProvidersEditorProps) {
  const [rotated, setRotated] = useState<{ name: string; spKey: SamlSpKey } | null>(null);
  const unsaved = useUnsavedPart();
  const editing = useOpenRow('providers', providers, (provider) => provider.id, unsaved);
  const saved = async () => {
    editing.forget();
    await onChanged();
  };
  const offered = (provider: AuthProvider) => editable(provider) || deletable(provider);
  const actions = (provider: AuthProvider) =>
    offered(provider) && (
      <AuthProviderActions
        scope={scope}
        provider={provider}
        providers={providers}
        editable={editable(provider)}
        deletable={deletable(provider)}
        onEdit={() => editing.open(provider)}
        onDeleted={() => editing.forget(provider)}
        onChanged={onChanged}
        onRotated={(spKey) => setRotated({ name: provider.name, spKey })}
      />
    );
  return (
    <>
      <AuthProvidersTable providers={providers} actions={providers.some(offered) ? actions : undefined} />
      {rotated !== null && <RotatedSpKey name={rotated.name} spKey={rotated.spKey} onDismiss={() => setRotated(null)} />}
      <UnlistedRow panel={editing} gone={(provider) => `The ${provider.name} provider was deleted elsewhere.`} />
      {editing.row !== undefined && editable(editing.row) && (
        <UnsavedParts value={unsaved.parts}>
          <EditAuthProvider key={editing.row.id} scope={scope} provider={editing.row} onSaved={saved} onCancel={editing.close} />
        </UnsavedParts>
      )}
    </>
  );
}
