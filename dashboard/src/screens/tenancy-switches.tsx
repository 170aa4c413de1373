import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../api.ts';
import { ErrorDetails } from '../components/error-details.tsx';
import { ErrorMessage } from '../components/status.tsx';
import { errorMessage } from '../error-message.ts';
import { useUnsavedChanges } from '../hooks/use-unsaved-changes.ts';
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

interface TenancySwitchesProps {
  appId: string;
  config: TenancyConfig;
  onSaved: (config: TenancyConfig) => void;
}

/**
 * The application's four tenancy switches, each a choice saved by its own Save (isolating authentication once
 * confirmed): moving through a radio group with the arrow keys changes nothing, as in Auth0's and Zitadel's settings.
 * A chosen value not saved yet says what saving it does. A refused save (or a declined confirmation) puts the radios
 * back on the saved value.
 */
export function TenancySwitches({ appId, config, onSaved }: TenancySwitchesProps) {
  const [drafts, setDrafts] = useState<Partial<Record<TenancySwitch, TenancySwitchValue>>>({});
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<SwitchFailure | null>(null);
  const id = useId();
  useUnsavedChanges(TENANT_FEATURES.some((feature) => (drafts[feature.setting] ?? config[feature.setting]) !== config[feature.setting]));

  const forget = (setting: TenancySwitch) => setDrafts(({ [setting]: _, ...others }) => others);

  const save = async (event: FormEvent<HTMLFormElement>, feature: TenantFeature, value: TenancySwitchValue) => {
    event.preventDefault();
    const goesPerTenant = value === feature.choices[1].value;
    if (goesPerTenant && feature.confirmPerTenant !== undefined && !window.confirm(feature.confirmPerTenant)) {
      forget(feature.setting);
      return;
    }
    setSaving(true);
    setFailure(null);
    try {
      onSaved(await updateTenancySwitch(appId, feature.setting, value));
    } catch (error) {
      setFailure(failureOf(feature.setting, error));
    }
    forget(feature.setting);
    setSaving(false);
  };

  return (
    <section aria-labelledby="tenancy-heading">
      <h2 id="tenancy-heading">Tenancy</h2>
      <div className="switches">
        {TENANT_FEATURES.map((feature) => {
          const chosen = drafts[feature.setting] ?? config[feature.setting];
          const changed = chosen !== config[feature.setting];
          const effectId = `${id}-${feature.setting}-effect`;
          return (
            <form key={feature.setting} onSubmit={(event) => void save(event, feature, chosen)}>
              <fieldset disabled={saving} aria-describedby={changed ? effectId : undefined}>
                <legend>{feature.label}</legend>
                {feature.choices.map((choice) => (
                  <label key={choice.value}>
                    <input
                      type="radio"
                      name={feature.setting}
                      value={choice.value}
                      checked={chosen === choice.value}
                      onChange={() => setDrafts((current) => ({ ...current, [feature.setting]: choice.value }))}
                    />
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
        })}
      </div>
    </section>
  );
}
