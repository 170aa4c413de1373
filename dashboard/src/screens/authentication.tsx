import { useCallback } from 'react';
import { AuthProvidersTable } from '../components/auth-providers-table.tsx';
import { OverrideBadge } from '../components/override-badge.tsx';
import { PageFooter } from '../components/page-footer.tsx';
import { PoliciesTable } from '../components/policies-table.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { Subsection } from '../components/subsection.tsx';
import { TenantScopedSection, type TenantViewProps } from '../components/tenant-scoped-section.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { usePages } from '../hooks/use-pages.ts';
import { useTenantView } from '../hooks/use-tenant-view.ts';
import { getApplicationPolicies, getTenantAuth, listApplicationAuthProviders } from '../operations-email-auth.ts';
import { AUTHENTICATION, ownProvidersOverride, policyOverride } from '../tenant-features.ts';

function ApplicationProviders({ appId }: { appId: string }) {
  const providers = usePages(useCallback((cursor: string | null) => listApplicationAuthProviders(appId, cursor), [appId]));
  return (
    <Subsection title="Providers">
      {!providers.loading && providers.error === null && providers.items.length === 0 ? (
        <p>This application has no auth providers yet.</p>
      ) : (
        <AuthProvidersTable providers={providers.items} />
      )}
      <PageFooter pages={providers} loadingLabel="Loading the auth providers…" />
    </Subsection>
  );
}

function ApplicationPolicies({ appId }: { appId: string }) {
  const policies = useAsync(useCallback(() => getApplicationPolicies(appId), [appId]));
  return (
    <Subsection title="Policies">
      {policies.status === 'loading' && <Loading>Loading the policies…</Loading>}
      {policies.status === 'failed' && <ErrorMessage message={policies.message} />}
      {policies.status === 'done' && <PoliciesTable policies={policies.data} />}
    </Subsection>
  );
}

function ApplicationAuth({ appId }: { appId: string }) {
  return (
    <>
      <ApplicationProviders appId={appId} />
      <ApplicationPolicies appId={appId} />
    </>
  );
}

/** An isolated tenant's providers and policies in force, each with its badge and, when its own, its removal. */
function TenantAuth({ appId, tenant }: TenantViewProps) {
  const { view, removal } = useTenantView(appId, tenant, getTenantAuth);
  if (view.status === 'loading') return <Loading>{`Loading ${tenant.name}'s authentication…`}</Loading>;
  if (view.status === 'failed') return <ErrorMessage message={view.message} />;
  const auth = view.data;
  return (
    <>
      <Subsection title="Providers">
        <div className="source">
          <OverrideBadge source={auth.providersSource} override={ownProvidersOverride(auth.providers)} removal={removal} />
        </div>
        <AuthProvidersTable providers={auth.providers} />
      </Subsection>
      <Subsection title="Policies">
        <PoliciesTable
          policies={auth.policies}
          badge={(policy) => <OverrideBadge source={policy.source ?? 'inherited'} override={policyOverride(policy.kind)} removal={removal} />}
        />
      </Subsection>
    </>
  );
}

/** The auth providers and policies: the application's and, while authentication is isolated, a tenant's through the picker. */
export function Authentication({ appId }: { appId: string }) {
  return (
    <TenantScopedSection appId={appId} heading="Authentication" features={[AUTHENTICATION]} ApplicationView={ApplicationAuth} TenantView={TenantAuth} />
  );
}
