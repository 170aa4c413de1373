import { useCallback } from 'react';
import { EmailDeliveries } from '../components/email-deliveries.tsx';
import { EmailProviderEditor } from '../components/email-provider-editor.tsx';
import { EmailSettings } from '../components/email-settings.tsx';
import { EmailTemplateEditor } from '../components/email-template-editor.tsx';
import { OverrideBadge } from '../components/override-badge.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { TenantScopedSection, type TenantViewProps } from '../components/tenant-scoped-section.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { useTenantView } from '../hooks/use-tenant-view.ts';
import { getApplicationEmail, getTenantEmail } from '../operations-email-auth.ts';
import { EMAIL_PROVIDER, EMAIL_PROVIDER_OVERRIDE, EMAIL_TEMPLATES, emailTemplateOverride, isPerTenant } from '../tenant-features.ts';

/** The application's templates and provider, each editable, and the outbox (its tenants' mails too). */
function ApplicationEmail({ appId }: { appId: string }) {
  const email = useAsync(useCallback(() => getApplicationEmail(appId), [appId]));
  useReadOnReturn(email);
  if (email.status === 'loading') return <Loading>Loading the e-mail settings…</Loading>;
  if (email.status === 'failed') return <ErrorMessage message={email.message} />;
  const scope = { appId, tenantId: null };
  const reload = async () => email.replace(await getApplicationEmail(appId));
  return (
    <>
      <EmailSettings
        email={email.data}
        templateEditor={<EmailTemplateEditor scope={scope} templates={email.data.emailTemplates} onSaved={reload} />}
        providerEditor={<EmailProviderEditor scope={scope} provider={email.data.emailProvider} onSaved={reload} />}
      />
      <EmailDeliveries scope={scope} />
    </>
  );
}

/**
 * A tenant's effective templates and provider, with badges, removals and editing for the parts its switches leave to
 * it, and its own mails.
 */
function TenantEmail({ appId, tenant, config }: TenantViewProps) {
  const { view, removal, reload } = useTenantView(appId, tenant, getTenantEmail);
  if (view.status === 'loading') return <Loading>{`Loading ${tenant.name}'s e-mail settings…`}</Loading>;
  if (view.status === 'failed') return <ErrorMessage message={view.message} />;
  const provider = view.data.emailProvider;
  const scope = { appId, tenantId: tenant.id };
  const templatesPerTenant = isPerTenant(EMAIL_TEMPLATES, config);
  const providerPerTenant = isPerTenant(EMAIL_PROVIDER, config);
  return (
    <>
      <EmailSettings
        email={view.data}
        templateBadge={
          templatesPerTenant
            ? (template) => <OverrideBadge source={template.source ?? 'inherited'} override={emailTemplateOverride(template.key)} removal={removal} />
            : undefined
        }
        providerBadge={
          providerPerTenant ? <OverrideBadge source={provider.source ?? 'inherited'} override={EMAIL_PROVIDER_OVERRIDE} removal={removal} /> : undefined
        }
        templateEditor={templatesPerTenant && <EmailTemplateEditor scope={scope} templates={view.data.emailTemplates} onSaved={reload} />}
        providerEditor={providerPerTenant && <EmailProviderEditor scope={scope} provider={provider} onSaved={reload} />}
      />
      <EmailDeliveries scope={scope} />
    </>
  );
}

/**
 * The e-mail templates, provider and deliveries: the application's and, while templates or provider are per tenant, a
 * tenant's through the picker.
 */
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
