import { useState } from 'react';
import { ApiError } from '../api.ts';
import { ErrorDetails } from '../components/error-details.tsx';
import { ErrorMessage } from '../components/status.tsx';
import { errorMessage } from '../error-message.ts';
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
 * The application's four tenancy switches, each saved as soon as it is changed. The radios show the saved values, so a
 * refused save (or a declined confirmation) leaves them as they were.
 */
export function TenancySwitches({ appId, config, onSaved }: TenancySwitchesProps) {
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<SwitchFailure | null>(null);

  const choose = async (feature: TenantFeature, value: TenancySwitchValue) => {
    const goesPerTenant = value === feature.choices[1].value;
    if (goesPerTenant && feature.confirmPerTenant !== undefined && !window.confirm(feature.confirmPerTenant)) return;
    setSaving(true);
    setFailure(null);
    try {
      onSaved(await updateTenancySwitch(appId, feature.setting, value));
    } catch (error) {
      setFailure(failureOf(feature.setting, error));
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
            {failure?.setting === feature.setting && (
              <>
                <ErrorMessage message={failure.message} />
                <ErrorDetails label="What the tenants still hold" items={failure.blockers} />
              </>
            )}
          </fieldset>
        ))}
      </div>
    </section>
  );
}
