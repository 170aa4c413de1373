import type { ReactNode } from 'react';
import { EMAIL_PROVIDER_KINDS } from '../email-providers.ts';
import type { EmailProvider, EmailSettings as Settings, EmailTemplate } from '../operations-email-auth.ts';
import { Subsection } from './subsection.tsx';

interface EmailSettingsProps {
  email: Settings;
  /** A template's badge (and removal), for a tenant whose templates may be its own; no Source column without it. */
  templateBadge?: (template: EmailTemplate) => ReactNode;
  /** The provider's badge (and removal), likewise. */
  providerBadge?: ReactNode;
  /** What edits the templates, and the provider, where this scope may change them: each after what it edits. */
  templateEditor?: ReactNode;
  providerEditor?: ReactNode;
}

/** The 13 templates and the provider of one scope. Secrets are never read back: only the names of those set show. */
export function EmailSettings({ email, templateBadge, providerBadge, templateEditor, providerEditor }: EmailSettingsProps) {
  return (
    <>
      <Subsection title="Templates">
        <table>
          <thead>
            <tr>
              <th scope="col">Template</th>
              <th scope="col">Subject</th>
              {templateBadge !== undefined && <th scope="col">Source</th>}
            </tr>
          </thead>
          <tbody>
            {email.emailTemplates.map((template) => (
              <tr key={template.key}>
                <th scope="row"><code>{template.key}</code></th>
                <td>{template.subject}</td>
                {templateBadge !== undefined && <td>{templateBadge(template)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </Subsection>
      {templateEditor}
      <Subsection title="Provider">
        {providerBadge !== undefined && <div className="source">{providerBadge}</div>}
        <ProviderDetails provider={email.emailProvider} />
      </Subsection>
      {providerEditor}
    </>
  );
}

function ProviderDetails({ provider }: { provider: EmailProvider }) {
  const from = provider.fromName === null ? provider.fromAddress : `${provider.fromName} <${provider.fromAddress}>`;
  return (
    <dl className="details">
      <div>
        <dt>Service</dt>
        <dd>{EMAIL_PROVIDER_KINDS[provider.type].label}</dd>
      </div>
      <div>
        <dt>From</dt>
        <dd>{from}</dd>
      </div>
      <div>
        <dt>Reply-To</dt>
        <dd>{provider.replyTo ?? 'None'}</dd>
      </div>
      {provider.smtp !== null && (
        <div>
          <dt>SMTP server</dt>
          <dd>{`${provider.smtp.host}:${provider.smtp.port} (${provider.smtp.security})${provider.smtp.username === null ? '' : `, user ${provider.smtp.username}`}`}</dd>
        </div>
      )}
      {provider.ses !== null && (
        <div>
          <dt>SES</dt>
          <dd>{`${provider.ses.region}, access key ${provider.ses.accessKeyId}`}</dd>
        </div>
      )}
      <div>
        <dt>Secrets set</dt>
        <dd>{provider.secretsSet.length === 0 ? 'None' : provider.secretsSet.join(', ')}</dd>
      </div>
    </dl>
  );
}
