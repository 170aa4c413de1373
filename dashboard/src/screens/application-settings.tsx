import { useCallback } from 'react';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { getApplicationSettings, type ApplicationSettings } from '../operations-applications.ts';
import type { ApplicationScreenProps } from './application.tsx';
import { ApplicationSettingsDetails, ApplicationSettingsForm } from './application-settings-form.tsx';
import { ApplicationStatsSection } from './application-stats.tsx';
import { DeleteApplication } from './delete-application.tsx';

/**
 * The Settings tab: the application's name and audit retention (a form to an operator who may change them), its
 * figures, and its deletion (to one who may delete it).
 */
export function ApplicationSettingsScreen({ appId, may, onChanged }: ApplicationScreenProps) {
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
          {may('applications:write') ? (
            <ApplicationSettingsForm application={settings.data} onSaved={saved} />
          ) : (
            <ApplicationSettingsDetails application={settings.data} />
          )}
          <ApplicationStatsSection appId={appId} multiTenant={settings.data.multiTenant} />
          {may('applications:delete') && <DeleteApplication application={settings.data} onDeleted={() => onChanged(null)} />}
        </>
      )}
    </section>
  );
}
