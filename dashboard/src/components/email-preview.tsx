import type { RenderedEmail } from '../operations-email.ts';
import { Subsection } from './subsection.tsx';

/** The HTML is shown as its source: the page's CSP refuses a mail's inline styles. */
export function EmailPreview({ rendered, title = 'Preview' }: { rendered: RenderedEmail; title?: string }) {
  return (
    <Subsection title={title}>
      <dl className="details">
        <div>
          <dt>Subject</dt>
          <dd>{rendered.subject}</dd>
        </div>
        <div>
          <dt>Text body</dt>
          <dd><pre className="mail-body">{rendered.text}</pre></dd>
        </div>
        <div>
          <dt>HTML body (source)</dt>
          <dd><pre className="mail-body"><code>{rendered.html}</code></pre></dd>
        </div>
      </dl>
    </Subsection>
  );
}
