import { useId } from 'react';
import { useKeptPlace } from '../hooks/use-kept.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { UnsavedParts, useUnsavedPart } from '../hooks/use-unsaved-changes.ts';
import type { EmailTemplate } from '../operations-email-auth.ts';
import { putEmailTemplate, type EmailTemplateInput } from '../operations-email.ts';
import type { SettingsScope } from '../operations.ts';
import { EmailTemplateForm } from './email-template-form.tsx';
import { Outcome } from './status.tsx';
import { Subsection } from './subsection.tsx';

interface EmailTemplateEditorProps {
  scope: SettingsScope;
  templates: readonly EmailTemplate[];
  /** Reads the templates again after a save, so the table (and a tenant's badges) show it. */
  onSaved: () => Promise<void>;
}

/** "Edit a template": one of the scope's templates, chosen, edited and saved (a tenant's save is its own override). */
export function EmailTemplateEditor({ scope, templates, onSaved }: EmailTemplateEditorProps) {
  const [key, setKey] = useKeptPlace('template', templates[0]?.key ?? '');
  const saving = useSubmission<string>();
  const unsaved = useUnsavedPart();
  const id = useId();
  const template = templates.find((each) => each.key === key);

  const choose = unsaved.guard((next: string) => {
    setKey(next);
    saving.clear();
  });
  const save = (draft: EmailTemplateInput, saved: () => void) =>
    saving.run(async () => {
      await putEmailTemplate(scope, key, draft);
      saved();
      await onSaved();
      return `Saved the ${key} template.`;
    });

  return (
    <Subsection title="Edit a template">
      <div className="picker">
        <label htmlFor={`${id}-template`}>Template to edit</label>
        <select id={`${id}-template`} value={key} onChange={(event) => choose(event.target.value)}>
          {templates.map((each) => <option key={each.key} value={each.key}>{each.key}</option>)}
        </select>
      </div>
      {scope.tenantId !== null && (
        <p className="hint">Saving gives this tenant its own copy of this template; its other templates stay the application’s.</p>
      )}
      {template !== undefined && (
        <RefusedField value={saving.refusal}>
          <UnsavedParts value={unsaved.parts}>
            <EmailTemplateForm key={template.key} scope={scope} template={template} saving={saving.busy} onSave={save} />
          </UnsavedParts>
        </RefusedField>
      )}
      <Outcome outcome={saving.outcome} />
    </Subsection>
  );
}
