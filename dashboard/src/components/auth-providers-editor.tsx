import { useState } from 'react';
import { UnsavedParts, useUnsavedPart } from '../hooks/use-unsaved-changes.ts';
import type { SamlSpKey } from '../operations-auth.ts';
import type { AuthProvider } from '../operations-email-auth.ts';
import type { SettingsScope } from '../operations.ts';
import { AuthProviderActions } from './auth-provider-actions.tsx';
import { AuthProvidersTable } from './auth-providers-table.tsx';
import { EditAuthProvider } from './edit-auth-provider.tsx';
import { RotatedSpKey } from './rotated-sp-key.tsx';

interface AuthProvidersEditorProps {
  scope: SettingsScope;
  providers: readonly AuthProvider[];
  /** Whether the scope may change a provider: a tenant only its own, not those it inherits. */
  editable: (provider: AuthProvider) => boolean;
  /** Reads the providers again after a change. */
  onChanged: () => Promise<void>;
}

/**
 * The providers' table with the buttons of those the scope may change, a SAML provider's new SP key once rotated, and
 * the edit form of the one being edited.
 */
export function AuthProvidersEditor({ scope, providers, editable, onChanged }: AuthProvidersEditorProps) {
  const [editingId, setEditingId] = useState<string | null>(null);
  const [rotated, setRotated] = useState<{ name: string; spKey: SamlSpKey } | null>(null);
  const editing = providers.find((provider) => provider.id === editingId);
  const unsaved = useUnsavedPart();
  const edit = unsaved.guard(setEditingId);
  const saved = async () => {
    setEditingId(null);
    await onChanged();
  };
  return (
    <>
      <AuthProvidersTable
        providers={providers}
        actions={(provider) =>
          editable(provider) && (
            <AuthProviderActions
              scope={scope}
              provider={provider}
              providers={providers}
              onEdit={() => edit(provider.id)}
              onChanged={onChanged}
              onRotated={(spKey) => setRotated({ name: provider.name, spKey })}
            />
          )
        }
      />
      {rotated !== null && <RotatedSpKey name={rotated.name} spKey={rotated.spKey} onDismiss={() => setRotated(null)} />}
      {editing !== undefined && (
        <UnsavedParts value={unsaved.parts}>
          <EditAuthProvider key={editing.id} scope={scope} provider={editing} onSaved={saved} onCancel={() => edit(null)} />
        </UnsavedParts>
      )}
    </>
  );
}
