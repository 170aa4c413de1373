import { useCallback, useState } from 'react';
import { EmailDeliveries } from '../components/email-deliveries.tsx';
import { EmailProviderEditor } from '../components/email-provider-editor.tsx';
import { EmailSettings } from '../components/email-settings.tsx';
import { EmailTemplateEditor } from '../components/email-template-editor.tsx';
import { OverrideBadge } from '../components/override-badge.tsx';
import { SenderDomain } from '../components/sender-domain.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { TenantScopedSection, type TenantViewProps } from '../components/tenant-scoped-section.tsx';
import { TenantScreen } from '../components/tenant-screen.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { useTenantView } from '../hooks/use-tenant-view.ts';
import { getApplicationEmail, getTenantEmail, type EmailProvider } from '../operations-email-auth.ts';
import { mayOverride, type MayDo } from '../operations-own-permissions.ts';
import type { NamedTenant } from '../operations.ts';
import { EMAIL_PROVIDER, EMAIL_PROVIDER_OVERRIDE, EMAIL_TEMPLATES, emailTemplateOverride, isPerTenant } from '../tenant-features.ts';

/** Changes with each save or removal of the provider, so that its sender domain is read again. */
const providerVersion = (provider: EmailProvider) => `${provider.source ?? ''}:${provider.updatedAt ?? 'built-in'}`;

/**
 * The application's templates and provider, each editable by an operator who may change them, its sender domain, and
 * the outbox (its tenants' mails too).
 */
function ApplicationEmail({ appId, may }: { appId: string; may: MayDo }) {
  const email = useAsync(useCallback(() => getApplicationEmail(appId), [appId]));
  useReadOnReturn(email);
  const [queued, setQueued] = useState(0);
  if (email.status === 'loading') return <Loading>Loading the e-mail settings…</Loading>;
  if (email.status === 'failed') return <ErrorMessage message={email.message} />;
  const scope = { appId, tenantId: null };
  const reload = async () => email.replace(await getApplicationEmail(appId));
  const editable = may('email:write');
  return (
    <>
      <EmailSettings
        email={email.data}
        templateEditor={editable && <EmailTemplateEditor scope={scope} templates={email.data.emailTemplates} onSaved={reload} />}
        providerEditor={
          editable && <EmailProviderEditor scope={scope} provider={email.data.emailProvider} onSaved={reload} onTestMailQueued={() => setQueued(queued + 1)} />
        }
      />
      <SenderDomain key={providerVersion(email.data.emailProvider)} scope={scope} mayCheck={editable} />
      <EmailDeliveries scope={scope} queued={queued} />
    </>
  );
}

/** Said where a feature's switch keeps it the application's: on a tenant's screen, what the tenant uses and may not change. */
const applicationWide = (what: string, tenant: NamedTenant) => (
  <p className="hint">{`The application's ${what} applies to every tenant, ${tenant.name} included, and is not editable here.`}</p>
);

/**
 * A tenant's effective templates and provider, with badges, removals and editing for the parts its switches leave to
 * it (as the operator's permissions there allow), and its own mails.
 */
function TenantEmail({ appId, tenant, config, may }: TenantViewProps) {
  const { view, removal, reload } = useTenantView(appId, tenant, getTenantEmail);
  const [queued, setQueued] = useState(0);
  if (view.status === 'loading') return <Loading>{`Loading ${tenant.name}'s e-mail settings…`}</Loading>;
  if (view.status === 'failed') return <ErrorMessage message={view.message} />;
  const provider = view.data.emailProvider;
  const scope = { appId, tenantId: tenant.id };
  const templatesPerTenant = isPerTenant(EMAIL_TEMPLATES, config);
  const providerPerTenant = isPerTenant(EMAIL_PROVIDER, config);
  const removable = mayOverride(may, 'email:delete');
  const editable = mayOverride(may, 'email:write');
  const templateEditor = templatesPerTenant
    ? editable && <EmailTemplateEditor scope={scope} templates={view.data.emailTemplates} onSaved={reload} />
    : applicationWide('set of e-mail templates', tenant);
  const providerEditor = providerPerTenant
    ? editable && <EmailProviderEditor scope={scope} provider={provider} onSaved={reload} onTestMailQueued={() => setQueued(queued + 1)} />
    : applicationWide('e-mail provider', tenant);
  return (
    <>
      <EmailSettings
        email={view.data}
        templateBadge={
          templatesPerTenant
            ? (template) => (
                <OverrideBadge source={template.source ?? 'inherited'} override={removable ? emailTemplateOverride(template.key) : undefined} removal={removal} />
              )
            : undefined
        }
        providerBadge={
          providerPerTenant ? <OverrideBadge source={provider.source ?? 'inherited'} override={removable ? EMAIL_PROVIDER_OVERRIDE : undefined} removal={removal} /> : undefined
        }
        templateEditor={templateEditor}
        providerEditor={providerEditor}
      />
      <SenderDomain key={providerVersion(provider)} scope={scope} mayCheck={may('email:write')} />
      <EmailDeliveries scope={scope} queued={queued} />
    </>
  );
}

/** One tenant's e-mail templates, provider and mails on its own screen, for an operator of some tenants only. */
export function TenantEmailScreen({ appId, tenant, may }: { appId: string; tenant: NamedTenant; may: MayDo }) {
  return <TenantScreen appId={appId} tenant={tenant} heading={`E-mail of ${tenant.name}`} may={may} TenantView={TenantEmail} />;
}

/**
 * The e-mail templates, provider, sender domain and deliveries: the application's and, while templates or provider are per tenant, a
 * tenant's through the picker.
 */
export function Email({ appId, may }: { appId: string; may: MayDo }) {
  return (
    <TenantScopedSection
      appId={appId}
      may={may}
      heading="E-mail"
      features={[EMAIL_TEMPLATES, EMAIL_PROVIDER]}
      ApplicationView={ApplicationEmail}
      TenantView={TenantEmail}
    />
  );
}
