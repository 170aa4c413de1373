import { useId, type FormEvent } from 'react';
import { DraftNotes } from '../components/draft-notes.tsx';
import { Refusal } from '../components/status.tsx';
import { TextField } from '../components/text-field.tsx';
import { useDraft } from '../hooks/use-draft.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { parseJwks, withoutPrivateKeys } from '../jwks-input.ts';
import { putM2MCredentialJwks, type M2MCredential } from '../operations-m2m-credentials.ts';

interface M2MJwksFormProps {
  appId: string;
  credential: M2MCredential;
  onSaved: (credential: M2MCredential) => void;
  onCancel: () => void;
}

/** "Replace keys" of a private_key_jwt credential: the whole set, starting from the one stored. */
export function M2MJwksForm({ appId, credential, onSaved, onCancel }: M2MJwksFormProps) {
  const [jwks, setJwks, sync] = useDraft(JSON.stringify(credential.jwks, null, 2), { keep: { name: `jwks:${credential.clientId}`, withoutSecrets: withoutPrivateKeys } });
  const id = useId();
  const save = useSubmission<void>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.run(async () => onSaved(await putM2MCredentialJwks(appId, credential.clientId, parseJwks(jwks))));
  };

  return (
    <section aria-labelledby={`${id}-heading`} className="panel">
      <h2 id={`${id}-heading`}>{`Keys of ${credential.name}`}</h2>
      <DraftNotes sync={sync} what="credential's key set" />
      <form className="key-form" onSubmit={submit}>
        <RefusedField value={save.refusal}>
          <TextField
            label="JWKS"
            rows={10}
            value={jwks}
            onChange={setJwks}
            hint="The whole set replaces the stored one: to roll a key, upload the old and the new key together, then the new one alone."
            field="jwks"
          />
        </RefusedField>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={save.busy}>Save keys</button>
          <button type="button" onClick={onCancel}>Cancel</button>
        </div>
      </form>
      <Refusal outcome={save.outcome} />
    </section>
  );
}
