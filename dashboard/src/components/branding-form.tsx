import { useId, type FormEvent } from 'react';
import { draftOf, inputOf, repeatedCopyKey, sameDraft, type BrandingDraft, type ColourName } from '../branding-draft.ts';
import { copyKeysFor } from '../copy-keys.ts';
import { useDraft } from '../hooks/use-draft.ts';
import { RefusedField, refusalMarks } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import type { Branding, BrandingInput } from '../operations.ts';
import { COLOURS } from './branding-details.tsx';
import { ColourField } from './colour-field.tsx';
import { CopyEditor } from './copy-editor.tsx';
import { DraftNotes } from './draft-notes.tsx';
import { Refusal } from './status.tsx';

interface BrandingFormProps<B extends Branding> {
  /** The values the page shows, which the form starts from. */
  branding: B;
  /** Puts the whole branding and answers the server's answer. */
  save: (input: BrandingInput) => Promise<B>;
  /** Shows the server's answer from then on. */
  onSaved: (branding: B) => void;
  /** A tenant's override: the texts only the application's branding holds are not offered. */
  forTenant?: boolean;
}

/** The branding's colours, logo, favicon and texts, saved as a whole; the server judges every value. */
export function BrandingForm<B extends Branding>({ branding, save, onSaved, forTenant = false }: BrandingFormProps<B>) {
  const keys = copyKeysFor(forTenant);
  const [draft, setDraft, sync] = useDraft(draftOf(branding, keys), { same: sameDraft, keep: { name: 'branding' } });
  const submission = useSubmission<B>();
  const { outcome } = submission;
  const id = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const repeated = repeatedCopyKey(draft.copy);
    submission.run(async () => {
      if (repeated !== undefined) throw new Error(`Two texts are set for ${repeated}: keep one.`);
      const saved = await save(inputOf(draft));
      sync.saved();
      onSaved(saved);
      return saved;
    });
  };
  const update = (patch: Partial<BrandingDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const setColour = (name: ColourName) => (value: string) => setDraft((current) => ({ ...current, colors: { ...current.colors, [name]: value } }));

  return (
    <form className="branding-form" noValidate onSubmit={submit}>
      <DraftNotes sync={sync} what="branding" />
      <RefusedField value={submission.refusal}>
        <fieldset className="colours">
          <legend>Colours</legend>
          {COLOURS.map(([name, label]) => (
            <ColourField key={name} label={label} value={draft.colors[name]} onChange={setColour(name)} field={`colors.${name}`} />
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-logo`}>Logo URL</label>
          <input
            id={`${id}-logo`}
            type="url"
            {...refusalMarks(submission.refusal, 'logoUrl')}
            value={draft.logoUrl}
            onChange={(event) => update({ logoUrl: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-favicon`}>Favicon URL</label>
          <input
            id={`${id}-favicon`}
            type="url"
            {...refusalMarks(submission.refusal, 'faviconUrl')}
            value={draft.faviconUrl}
            onChange={(event) => update({ faviconUrl: event.target.value })}
          />
        </div>
        <CopyEditor entries={draft.copy} keys={keys} onChange={(copy) => update({ copy })} />
      </RefusedField>
      <button type="submit" className="primary" disabled={submission.busy}>Save</button>
      {outcome !== null && 'done' in outcome && outcome.done === branding && <p role="status">Branding saved.</p>}
      <Refusal outcome={outcome} />
    </form>
  );
}
