import { useCallback } from 'react';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { getApplicationSettings, type ApplicationSettings } from '../operations-applications.ts';
import type { ApplicationScreenProps } from './application.tsx';
import { ApplicationSettingsForm } from './application-settings-form.tsx';
import { ApplicationStatsSection } from './application-stats.tsx';
import { DeleteApplication } from './delete-application.tsx';

/** The Settings tab: the application's name and audit retention, its figures, and its deletion. */
export function ApplicationSettingsScreen({ appId, onChanged }: ApplicationScreenProps) {
  const settings = useAsync(useCallback(() => getApplicationSettings(appId), [appId]));
  useReadOnReturn(settings);
  const saved = (application: ApplicationSettings) => {
    settings.replace(application);
    onChanged({ id: application.id, name: application.name, multiTenant: application.multiTenant });
  };

  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      {settings.status === 'loading' && <Loading>Loading the settings…</Loading>}
      {settings.status === 'failed' && <ErrorMessage message={settings.message} />}
      {settings.status === 'done' && (
        <>
          <ApplicationSettingsForm application={settings.data} onSaved={saved} />
          <ApplicationStatsSection appId={appId} multiTenant={settings.data.multiTenant} />
          <DeleteApplication application={settings.data} onDeleted={() => onChanged(null)} />
        </>
      )}
    </section>
  );
}
