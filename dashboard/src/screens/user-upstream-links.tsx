import { useCallback } from 'react';
import { readAllPages } from '../all-pages.ts';
import { ErrorMessage } from '../components/status.tsx';
import { Timestamp } from '../components/timestamp.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useConfirmedAction } from '../hooks/use-confirmed-action.ts';
import { useReadOnReturn } from '../hooks/use-read-on-return.ts';
import type { SettingsScope } from '../operations.ts';
import { listAuthProviders } from '../operations-email-auth.ts';
import { listUpstreamLinks, unlinkUpstream, type UpstreamLink } from '../operations-users.ts';

interface NamedLink extends UpstreamLink {
  /** The provider's name; an isolated tenant's own provider is not among the application's, and shows its id. */
  readonly providerName: string;
}

/** `nameProviders` false: the operator may not read the scope's providers, whose ids then stand for them. */
async function namedLinks(scope: SettingsScope, userId: string, nameProviders: boolean): Promise<NamedLink[]> {
  const [links, providers] = await Promise.all([
    listUpstreamLinks(scope, userId),
    nameProviders ? readAllPages((cursor) => listAuthProviders(scope, cursor)) : [],
  ]);
  const names = new Map(providers.map((provider) => [provider.id, provider.name]));
  return links.map((link) => ({ ...link, providerName: names.get(link.providerId) ?? `Provider ${link.providerId}` }));
}

interface UserUpstreamLinksProps {
  scope: SettingsScope;
  userId: string;
  email: string;
  /** Whether the operator may read the scope's auth providers, which name the links. */
  nameProviders: boolean;
  unlinkable: boolean;
}

/** The user's social accounts, each unlinked once confirmed: that account then no longer signs in as the user. */
export function UserUpstreamLinks({ scope, userId, email, nameProviders, unlinkable }: UserUpstreamLinksProps) {
  const { appId, tenantId } = scope;
  const links = useAsync(useCallback(() => namedLinks({ appId, tenantId }, userId, nameProviders), [appId, tenantId, userId, nameProviders]));
  useReadOnReturn(links);
  const unlink = useConfirmedAction();
  if (links.status === 'loading') return <>…</>;
  if (links.status === 'failed') return <ErrorMessage message={links.message} />;
  if (links.data.length === 0) return <>None</>;
  const remove = (link: NamedLink) => () =>
    unlink.run(
      `Unlink ${email}'s ${link.providerName} account (${link.subject})? It no longer signs in as them; its next sign-in links again only by an address the provider verified that they hold.`,
      async () => {
        await unlinkUpstream(scope, userId, link.id);
        links.replace(links.data.filter((other) => other.id !== link.id));
      },
    );
  return (
    <>
      <ul className="uris">
        {links.data.map((link) => (
          <li key={link.id}>
            {`${link.providerName}: ${link.subject}, linked `}
            <Timestamp value={link.createdAt} />{' '}
            {unlinkable && <button type="button" disabled={unlink.busy} onClick={remove(link)} aria-label={`Unlink ${link.providerName} account ${link.subject}`}>Unlink</button>}
          </li>
        ))}
      </ul>
      {unlink.failure !== null && <ErrorMessage message={unlink.failure} />}
    </>
  );
}
