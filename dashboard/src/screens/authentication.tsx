import { useCallback } from 'react';
import { AddAuthProvider } from '../components/add-auth-provider.tsx';
import { AuthProvidersEditor } from '../components/auth-providers-editor.tsx';
import { AuthProvidersTable } from '../components/auth-providers-table.tsx';
import { OverrideBadge } from '../components/override-badge.tsx';
import { PagedList } from '../components/paged-list.tsx';
import { PoliciesTable } from '../components/policies-table.tsx';
import { PolicyEditor } from '../components/policy-editor.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { Subsection } from '../components/subsection.tsx';
import { TenantScopedSection, type TenantViewProps } from '../components/tenant-scoped-section.tsx';
import { TenantScreen } from '../components/tenant-screen.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { usePages } from '../hooks/use-pages.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import { useTenantView } from '../hooks/use-tenant-view.ts';
import { getApplicationPolicies, getTenantAuth, listApplicationAuthProviders } from '../operations-email-auth.ts';
import { mayOverride, type MayDo } from '../operations-own-permissions.ts';
import type { NamedTenant } from '../operations.ts';
import { AUTHENTICATION, isPerTenant, ownProvidersOverride, policyOverride } from '../tenant-features.ts';

/** The application's providers, each changed or deleted, and one added, as the operator's permissions allow. */
function ApplicationProviders({ appId, may }: { appId: string; may: MayDo }) {
  const providers = usePages(useCallback((cursor: string | null) => listApplicationAuthProviders(appId, cursor), [appId]));
  useReadOnReturn(providers);
  const scope = { appId, tenantId: null };
  // The editor's changes answer no provider (it serves a tenant's view too, read whole after one): the pages shown are read again.
  const changed = async () => providers.refresh();
  return (
    <>
      <Subsection title="Providers">
        <PagedList pages={providers} emptyMessage="This application has no auth providers: no one can sign in to it until one is added." loadingLabel="Loading the auth providers…">
          <AuthProvidersEditor
            scope={scope}
            providers={providers.items}
            editable={() => may('auth_providers:write')}
            deletable={() => may('auth_providers:delete')}
            onChanged={changed}
          />
        </PagedList>
      </Subsection>
      {may('auth_providers:write') && <AddAuthProvider scope={scope} own={providers.items} onAdded={async (provider) => providers.add(provider)} />}
    </>
  );
}

/** The application's policies, and their editor to an operator who may change them. */
function ApplicationPolicies({ appId, may }: { appId: string; may: MayDo }) {
  const policies = useAsync(useCallback(() => getApplicationPolicies(appId), [appId]));
  useReadOnReturn(policies);
  if (policies.status === 'loading') return <Loading>Loading the policies…</Loading>;
  if (policies.status === 'failed') return <ErrorMessage message={policies.message} />;
  const reload = async () => policies.replace(await getApplicationPolicies(appId));
  return (
    <>
      <Subsection title="Policies">
        <PoliciesTable policies={policies.data} />
      </Subsection>
      {may('policies:write') && <PolicyEditor scope={{ appId, tenantId: null }} policies={policies.data} onSaved={reload} />}
    </>
  );
}

function ApplicationAuth({ appId, may }: { appId: string; may: MayDo }) {
  return (
    <>
      <ApplicationProviders appId={appId} may={may} />
      <ApplicationPolicies appId={appId} may={may} />
    </>
  );
}

/**
 * An isolated tenant's providers and policies in force, each with its badge and, when its own, its removal; its own
 * providers are edited here, and a provider added or a policy saved is the tenant's own (each as the operator's
 * permissions there allow). While authentication is shared, the tenant's screen shows the application's, not editable.
 */
function TenantAuth({ appId, tenant, config, may }: TenantViewProps) {
  const { view, removal, reload } = useTenantView(appId, tenant, getTenantAuth);
  if (view.status === 'loading') return <Loading>{`Loading ${tenant.name}'s authentication…`}</Loading>;
  if (view.status === 'failed') return <ErrorMessage message={view.message} />;
  const auth = view.data;
  if (!isPerTenant(AUTHENTICATION, config)) {
    return (
      <>
        <p className="hint">{`Authentication is shared: the application's providers and policies apply to every tenant, ${tenant.name} included, and are not editable here.`}</p>
        <Subsection title="Providers">
          <AuthProvidersTable providers={auth.providers} />
        </Subsection>
        <Subsection title="Policies">
          <PoliciesTable policies={auth.policies} />
        </Subsection>
      </>
    );
  }
  const scope = { appId, tenantId: tenant.id };
  const inherits = auth.providersSource === 'inherited';
  const mayWriteProviders = mayOverride(may, 'auth_providers:write');
  const addHint = inherits
    ? `Adding a provider here gives ${tenant.name} a set of its own, with only the providers added here: it then signs in with those alone, no longer with the application's (an M2M or API keys provider alone leaves its sign-in to the application's).`
    : `A provider added here is ${tenant.name}'s own, beside its others.`;
  return (
    <>
      <Subsection title="Providers">
        <div className="source">
          <OverrideBadge
            source={auth.providersSource}
            override={mayOverride(may, 'auth_providers:delete') ? ownProvidersOverride(auth.providers) : undefined}
            removal={removal}
          />
        </div>
        {inherits && <p className="hint">{`${tenant.name} signs in with the application's providers.`}</p>}
        <AuthProvidersEditor
          scope={scope}
          providers={auth.providers}
          editable={(provider) => mayWriteProviders && provider.source === 'customized'}
          deletable={(provider) => mayOverride(may, 'auth_providers:delete') && provider.source === 'customized'}
          onChanged={reload}
        />
      </Subsection>
      {mayWriteProviders && (
        <AddAuthProvider scope={scope} hint={addHint} own={auth.providers.filter((provider) => provider.source === 'customized')} onAdded={reload} />
      )}
      <Subsection title="Policies">
        <PoliciesTable
          policies={auth.policies}
          badge={(policy) => (
            <OverrideBadge source={policy.source ?? 'inherited'} override={mayOverride(may, 'policies:delete') ? policyOverride(policy.kind) : undefined} removal={removal} />
          )}
        />
      </Subsection>
      {mayOverride(may, 'policies:write') && (
        <PolicyEditor
          scope={scope}
          policies={auth.policies}
          hint={`Saving gives ${tenant.name} its own policy of that kind, all of its values: the application's later changes to it no longer reach ${tenant.name}.`}
          onSaved={reload}
        />
      )}
    </>
  );
}

/** One tenant's providers and policies on its own screen, for an operator of some tenants only. */
export function TenantAuthenticationScreen({ appId, tenant, may }: { appId: string; tenant: NamedTenant; may: MayDo }) {
  return (
    <TenantScreen appId={appId} tenant={tenant} heading={`Authentication of ${tenant.name}`} may={may} TenantView={TenantAuth} />
  );
}

/** The auth providers and policies, edited: the application's and, while authentication is isolated, a tenant's through the picker. */
export function Authentication({ appId, may }: { appId: string; may: MayDo }) {
  return (
    <TenantScopedSection appId={appId} may={may} heading="Authentication" features={[AUTHENTICATION]} ApplicationView={ApplicationAuth} TenantView={TenantAuth} />
  );
}
