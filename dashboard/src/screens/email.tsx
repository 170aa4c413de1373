import { useCallback } from 'react';
import { EmailSettings } from '../components/email-settings.tsx';
import { OverrideBadge } from '../components/override-badge.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { TenantScopedSection, type TenantViewProps } from '../components/tenant-scoped-section.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useTenantView } from '../hooks/use-tenant-view.ts';
import { getApplicationEmail, getTenantEmail } from '../operations-email-auth.ts';
import { EMAIL_PROVIDER, EMAIL_PROVIDER_OVERRIDE, EMAIL_TEMPLATES, emailTemplateOverride, isPerTenant } from '../tenant-features.ts';

function ApplicationEmail({ appId }: { appId: string }) {
  const email = useAsync(useCallback(() => getApplicationEmail(appId), [appId]));
  if (email.status === 'loading') return <Loading>Loading the e-mail settings…</Loading>;
  if (email.status === 'failed') return <ErrorMessage message={email.message} />;
  return <EmailSettings email={email.data} />;
}

/** A tenant's effective templates and provider, with badges and removals for the parts its switches leave to it. */
function TenantEmail({ appId, tenant, config }: TenantViewProps) {
  const { view, removal } = useTenantView(appId, tenant, getTenantEmail);
  if (view.status === 'loading') return <Loading>{`Loading ${tenant.name}'s e-mail settings…`}</Loading>;
  if (view.status === 'failed') return <ErrorMessage message={view.message} />;
  const provider = view.data.emailProvider;
  return (
    <EmailSettings
      email={view.data}
      templateBadge={
        isPerTenant(EMAIL_TEMPLATES, config)
          ? (template) => <OverrideBadge source={template.source ?? 'inherited'} override={emailTemplateOverride(template.key)} removal={removal} />
          : undefined
      }
      providerBadge={
        isPerTenant(EMAIL_PROVIDER, config) ? (
          <OverrideBadge source={provider.source ?? 'inherited'} override={EMAIL_PROVIDER_OVERRIDE} removal={removal} />
        ) : undefined
      }
    />
  );
}

/** The e-mail templates and provider: the application's and, while either is per tenant, a tenant's through the picker. */
export function Email({ appId }: { appId: string }) {
  return (
    <TenantScopedSection
      appId={appId}
      heading="E-mail"
      features={[EMAIL_TEMPLATES, EMAIL_PROVIDER]}
      ApplicationView={ApplicationEmail}
      TenantView={TenantEmail}
    />
  );
}
