import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../api.ts';
import { ErrorDetails } from '../components/error-details.tsx';
import { DraftNotes } from '../components/draft-notes.tsx';
import { ErrorMessage } from '../components/status.tsx';
import { errorMessage } from '../error-message.ts';
import { useDraft } from '../hooks/use-draft.ts';
import { updateTenancySwitch, type TenancyConfig } from '../operations.ts';
import { describeTenantAuthData } from '../tenant-auth-data.ts';
import { TENANT_FEATURES, type TenancySwitch, type TenancySwitchValue, type TenantFeature } from '../tenant-features.ts';

interface SwitchFailure {
  setting: TenancySwitch;
  message: string;
  /** What each tenant still holds, when that is why sharing authentication again was refused. */
  blockers: readonly string[];
}

const failureOf = (setting: TenancySwitch, error: unknown): SwitchFailure => ({
  setting,
  message: errorMessage(error),
  blockers: error instanceof ApiError && error.code === 'tenant_auth_data_remains' ? error.details.map(describeTenantAuthData) : [],
});

interface SwitchFormProps {
  feature: TenantFeature;
  /** The switch's value as saved. */
  saved: TenancySwitchValue;
  /** Whether a switch is being saved: the others wait. */
  saving: boolean;
  failure: SwitchFailure | null;
  /** Saves `value` (once confirmed where asked); whether the server took it. */
  onSave: (value: TenancySwitchValue) => Promise<boolean>;
}

/** One switch, its choice a draft of the saved value: unsaved while it differs, kept with a notice when that changes. */
function TenancySwitchForm({ feature, saved, saving, failure, onSave }: SwitchFormProps) {
  // Two values: a change elsewhere while one is chosen can only be to the chosen one, which the draft then takes, so no
  // changed-elsewhere notice can arise.
  const [chosen, choose, sync] = useDraft(saved, { keep: { name: `switch:${feature.setting}` } });
  const id = useId();
  const changed = chosen !== saved;
  const effectId = `${id}-effect`;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    sync.saved();
    // Refused or declined, the radios go back on the saved value.
    if (!(await onSave(chosen))) sync.takeStored();
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      <fieldset disabled={saving} aria-describedby={changed ? effectId : undefined}>
        <legend>{feature.label}</legend>
        <DraftNotes sync={sync} what="switch" />
        {feature.choices.map((choice) => (
          <label key={choice.value}>
            <input type="radio" name={feature.setting} value={choice.value} checked={chosen === choice.value} onChange={() => choose(choice.value)} />
            {choice.label}
          </label>
        ))}
        {changed && (
          <p id={effectId} className="hint">
            {`Not saved yet. ${feature.effects[chosen === feature.choices[1].value ? 1 : 0]}`}
          </p>
        )}
        <button type="submit" className="small" disabled={!changed}>
          Save<span className="visually-hidden">{` ${feature.label}`}</span>
        </button>
        {failure?.setting === feature.setting && (
          <>
            <ErrorMessage message={failure.message} />
            <ErrorDetails label="What the tenants still hold" items={failure.blockers} />
          </>
        )}
      </fieldset>
    </form>
  );
}

interface TenancySwitchesProps {
  appId: string;
  config: TenancyConfig;
  /** Whether the operator may change them (`applications:write`); else they are shown as values. */
  writable: boolean;
  onSaved: (config: TenancyConfig) => void;
}

/**
 * The application's four tenancy switches, each a choice saved by its own Save (isolating authentication once
 * confirmed): moving through a radio group with the arrow keys changes nothing, as in Auth0's and Zitadel's settings.
 * A chosen value not saved yet says what saving it does. A refused save (or a declined confirmation) puts the radios
 * back on the saved value. To an operator who may not change them, they are values.
 */
export function TenancySwitches({ appId, config, writable, onSaved }: TenancySwitchesProps) {
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<SwitchFailure | null>(null);

  const save = async (feature: TenantFeature, value: TenancySwitchValue): Promise<boolean> => {
    const goesPerTenant = value === feature.choices[1].value;
    if (goesPerTenant && feature.confirmPerTenant !== undefined && !window.confirm(feature.confirmPerTenant)) return false;
    setSaving(true);
    setFailure(null);
    try {
      onSaved(await updateTenancySwitch(appId, feature.setting, value));
      return true;
    } catch (error) {
      setFailure(failureOf(feature.setting, error));
      return false;
    } finally {
      setSaving(false);
    }
  };

  if (!writable) {
    return (
      <section aria-labelledby="tenancy-heading">
        <h2 id="tenancy-heading">Tenancy</h2>
        <dl className="details">
          {TENANT_FEATURES.map((feature) => (
            <div key={feature.setting}>
              <dt>{feature.label}</dt>
              <dd>{feature.choices.find((choice) => choice.value === config[feature.setting])?.label ?? config[feature.setting]}</dd>
            </div>
          ))}
        </dl>
      </section>
    );
  }
  return (
    <section aria-labelledby="tenancy-heading">
      <h2 id="tenancy-heading">Tenancy</h2>
      <div className="switches">
        {TENANT_FEATURES.map((feature) => (
          <TenancySwitchForm
            key={feature.setting}
            feature={feature}
            saved={config[feature.setting]}
            saving={saving}
            failure={failure}
            onSave={(value) => save(feature, value)}
          />
        ))}
      </div>
    </section>
  );
}
