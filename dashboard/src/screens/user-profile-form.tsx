import type { FormEvent } from 'react';
import { Outcome } from '../components/status.tsx';
import { DraftNotes } from '../components/draft-notes.tsx';
import { TextField } from '../components/text-field.tsx';
import { useDraft } from '../hooks/use-draft.ts';
import { RefusedField } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import type { SettingsScope, User } from '../operations.ts';
import { updateUser, type UserUpdate } from '../operations-users.ts';

interface UserProfileFormProps {
  scope: SettingsScope;
  user: User;
  onChanged: (user: User) => void;
}

/** "Save profile": a user's name and address, the changed ones sent; an empty name removes it. */
export function UserProfileForm({ scope, user, onChanged }: UserProfileFormProps) {
  const [draft, setDraft, sync] = useDraft({ email: user.email, name: user.name ?? '' }, { keep: { name: `user:${user.id}` } });
  const submission = useSubmission<string>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const nextEmail = draft.email.trim();
    const nextName = draft.name.trim() === '' ? null : draft.name.trim();
    const changes: UserUpdate = { ...(nextEmail === user.email ? {} : { email: nextEmail }), ...(nextName === user.name ? {} : { name: nextName }) };
    submission.run(async () => {
      const saved = Object.keys(changes).length === 0 ? user : await updateUser(scope, user.id, changes);
      sync.saved();
      onChanged(saved);
      return `The profile of ${saved.email} is saved.`;
    });
  };

  return (
    <form className="inline-form" aria-label="Profile" onSubmit={submit}>
      <DraftNotes sync={sync} what="user's profile" />
      <RefusedField value={submission.refusal}>
        <TextField label="E-mail" type="email" value={draft.email} onChange={(email) => setDraft({ ...draft, email })} field="email" />
        <TextField label="Name" value={draft.name} onChange={(name) => setDraft({ ...draft, name })} field="name" />
      </RefusedField>
      <button type="submit" disabled={submission.busy}>Save profile</button>
      <Outcome outcome={submission.outcome} />
    </form>
  );
}
