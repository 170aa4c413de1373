import { useContext, useState, type FormEvent } from 'react';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { useUnsavedChanges } from '../hooks/use-unsaved-changes.ts';
import type { EmailTemplate } from '../operations-email-auth.ts';
import { previewEmailTemplate, type EmailTemplateInput, type RenderedEmail } from '../operations-email.ts';
import type { SettingsScope } from '../operations.ts';
import { EmailPreview } from './email-preview.tsx';
import { Refusal } from './status.tsx';
import { TextField } from './text-field.tsx';

interface EmailTemplateFormProps {
  scope: SettingsScope;
  /** The template as it applies in the scope: the draft starts from it. */
  template: EmailTemplate;
  saving: boolean;
  onSave: (draft: EmailTemplateInput) => void;
}

/** A template's subject, HTML and text bodies (Liquid), the variables they may use, and a preview of the draft. */
export function EmailTemplateForm({ scope, template, saving, onSave }: EmailTemplateFormProps) {
  const [subject, setSubject] = useState(template.subject);
  const [html, setHtml] = useState(template.html);
  const [text, setText] = useState(template.text);
  const preview = useSubmission<RenderedEmail>();
  // A refused preview marks the part it names, as a refused save (the editor's) does.
  const saveRefusal = useContext(RefusedField);
  const draft = { subject, html, text };
  useUnsavedChanges(subject !== template.subject || html !== template.html || text !== template.text);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSave(draft);
  };

  return (
    <>
      <form className="email-form" noValidate onSubmit={submit}>
        <RefusedField value={preview.refusal ?? saveRefusal}>
          <TextField label="Subject" value={subject} onChange={setSubject} field="subject" />
          <TextField label="HTML body" value={html} onChange={setHtml} rows={14} hint="Values are HTML-escaped unless followed by | raw." field="html" />
          <TextField label="Text body" value={text} onChange={setText} rows={8} field="text" />
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
