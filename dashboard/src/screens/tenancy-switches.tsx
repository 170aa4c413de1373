import { useState } from 'react';
import { ErrorMessage } from '../components/status.tsx';
import { errorMessage } from '../error-message.ts';
import { updateTenancySwitch, type TenancyConfig } from '../operations.ts';
import { TENANT_FEATURES, type TenancySwitch, type TenancySwitchValue, type TenantFeature } from '../tenant-features.ts';

interface TenancySwitchesProps {
  appId: string;
  config: TenancyConfig;
  onSaved: (config: TenancyConfig) => void;
}

/**
 * The application's four tenancy switches, each saved as soon as it is changed. The radios show the saved values, so a
 * refused save (or a declined confirmation) leaves them as they were.
 */
export function TenancySwitches({ appId, config, onSaved }: TenancySwitchesProps) {
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<{ setting: TenancySwitch; message: string } | null>(null);

  const choose = async (feature: TenantFeature, value: TenancySwitchValue) => {
    const goesPerTenant = value === feature.choices[1].value;
    if (goesPerTenant && feature.confirmPerTenant !== undefined && !window.confirm(feature.confirmPerTenant)) return;
    setSaving(true);
    setFailure(null);
    try {
      onSaved(await updateTenancySwitch(appId, feature.setting, value));
    } catch (error) {
      setFailure({ setting: feature.setting, message: errorMessage(error) });
    }
    setSaving(false);
  };

  return (
    <section aria-labelledby="tenancy-heading">
      <h2 id="tenancy-heading">Tenancy</h2>
      <div className="switches">
        {TENANT_FEATURES.map((feature) => (
          <fieldset key={feature.setting} disabled={saving}>
            <legend>{feature.label}</legend>
            {feature.choices.map((choice) => (
              <label key={choice.value}>
                <input
                  type="radio"
                  name={feature.setting}
                  value={choice.value}
                  checked={config[feature.setting] === choice.value}
                  onChange={() => void choose(feature, choice.value)}
                />
                {choice.label}
              </label>
            ))}
            {failure?.setting === feature.setting && <ErrorMessage message={failure.message} />}
          </fieldset>
        ))}
      </div>
    </section>
  );
}
