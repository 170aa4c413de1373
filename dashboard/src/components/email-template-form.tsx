import { useContext, type FormEvent } from 'react';
import { useDraft } from '../hooks/use-draft.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import type { EmailTemplate } from '../operations-email-auth.ts';
import { previewEmailTemplate, type EmailTemplateInput, type RenderedEmail } from '../operations-email.ts';
import type { SettingsScope } from '../operations.ts';
import { EmailPreview } from './email-preview.tsx';
import { DraftNotes } from './draft-notes.tsx';
import { Refusal } from './status.tsx';
import { TextField } from './text-field.tsx';

interface EmailTemplateFormProps {
  scope: SettingsScope;
  /** The template as it applies in the scope: the draft starts from it. */
  template: EmailTemplate;
  saving: boolean;
  /** Saves the draft; `saved` is called once the server took it, before the template is read again. */
  onSave: (draft: EmailTemplateInput, saved: () => void) => void;
}

/** A template's subject, HTML and text bodies (Liquid), the variables they may use, and a preview of the draft. */
export function EmailTemplateForm({ scope, template, saving, onSave }: EmailTemplateFormProps) {
  const [draft, setDraft, sync] = useDraft<EmailTemplateInput>({ subject: template.subject, html: template.html, text: template.text }, { keep: { name: `template:${template.key}` } });
  const preview = useSubmission<RenderedEmail>();
  // A refused preview marks the part it names, as a refused save (the editor's) does.
  const saveRefusal = useContext(RefusedField);
  const set = (part: keyof EmailTemplateInput) => (value: string) => setDraft((current) => ({ ...current, [part]: value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSave(draft, sync.saved);
  };

  return (
    <>
      <form className="email-form" noValidate onSubmit={submit}>
        <DraftNotes sync={sync} what="template" />
        <RefusedField value={preview.refusal ?? saveRefusal}>
          <TextField label="Subject" value={draft.subject} onChange={set('subject')} field="subject" />
          <TextField label="HTML body" value={draft.html} onChange={set('html')} rows={14} hint="Values are HTML-escaped unless followed by | raw, which is refused on what end users write (user.name, user.email, newEmail, inviter.name…)." field="html" />
          <TextField label="Text body" value={draft.text} onChange={set('text')} rows={8} field="text" />
        </RefusedField>
        <div className="variables">
          <span>Variables (Liquid, e.g. <code>{'{{ user.name }}'}</code>):</span>
          <ul>
            {template.variables.map((variable) => <li key={variable}><code>{variable}</code></li>)}
          </ul>
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={saving}>Save template</button>
          <button type="button" disabled={preview.busy} onClick={() => preview.run(() => previewEmailTemplate(scope, template.key, draft))}>
            Preview
          </button>
        </div>
      </form>
      {preview.outcome !== null && 'done' in preview.outcome && <EmailPreview rendered={preview.outcome.done} />}
      <Refusal outcome={preview.outcome} />
    </>
  );
}
