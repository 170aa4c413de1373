import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import type { EmailProvider } from '../operations-email-auth.ts';
import { putEmailProvider, type EmailProviderInput } from '../operations-email.ts';
import type { SettingsScope } from '../operations.ts';
import { EmailProviderForm } from './email-provider-form.tsx';
import { Outcome } from './status.tsx';
import { Subsection } from './subsection.tsx';
import { TestMail } from './test-mail.tsx';

interface EmailProviderEditorProps {
  /** The application's (tenantId null) or a tenant's, whose save is its own provider. */
  scope: SettingsScope;
  provider: EmailProvider;
  /** Reads the settings again after a save, so the details (and a tenant's badge) show it. */
  onSaved: () => Promise<void>;
  /** A test mail sent through it is in the outbox. */
  onTestMailQueued: () => void;
}

/** "Change the provider" of the application or of one tenant, and a test mail through it. */
export function EmailProviderEditor({ scope, provider, onSaved, onTestMailQueued }: EmailProviderEditorProps) {
  const saving = useSubmission<string>();
  const save = (input: EmailProviderInput, saved: () => void) =>
    saving.run(async () => {
      await putEmailProvider(scope, input);
      saved();
      await onSaved();
      return 'Saved the e-mail provider.';
    });

  return (
    <>
      <Subsection title="Change the provider">
        {scope.tenantId !== null && <p className="hint">Saving gives this tenant its own provider, with secrets of its own.</p>}
        <RefusedField value={saving.refusal}>
          <EmailProviderForm provider={provider} saving={saving.busy} onSave={save} />
        </RefusedField>
        <Outcome outcome={saving.outcome} />
      </Subsection>
      <TestMail scope={scope} onQueued={onTestMailQueued} />
    </>
  );
}
