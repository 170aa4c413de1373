import { inlineHashes } from '../http/html-security.ts';
import { escapeHtml, hidden, type RenderedPage } from './pages.ts';

/**
 * The one script of the hosted pages: a `data-webauthn` form asks the browser's WebAuthn API on submit and posts the
 * answer (or `cancelled`) in `credential`. Inline, allowed by its hash alone; the forms stay plain POSTs.
 */
const SCRIPT = `for (const form of document.querySelectorAll('form[data-webauthn]')) {
  form.addEventListener('submit', async (event) => {
    const answer = form.elements.namedItem('credential');
    if (answer.value !== '') return;
    event.preventDefault();
    try {
      const options = JSON.parse(form.dataset.options);
      const credential = form.dataset.webauthn === 'create'
        ? await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) })
        : await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
      answer.value = JSON.stringify(credential.toJSON());
    } catch {
      answer.value = 'cancelled';
    }
    form.submit();
  });
}`;

const SCRIPT_ELEMENT = `<script>${SCRIPT}</script>`;
const SCRIPT_SOURCES = inlineHashes(SCRIPT_ELEMENT, 'script');

export interface WebauthnForm {
  readonly action: string;
  readonly csrf: string;
  readonly ceremony: 'get' | 'create';
  readonly options: unknown;
  readonly fields?: string;
  readonly label: string;
  readonly buttonClass?: string;
}

export const webauthnForm = (form: WebauthnForm): string =>
  `<form method="post" action="${escapeHtml(form.action)}" data-webauthn="${form.ceremony}" data-options="${escapeHtml(JSON.stringify(form.options))}">\n` +
  hidden('csrf', form.csrf) +
  `<input type="hidden" name="credential" value="">\n${form.fields ?? ''}` +
  `<button type="submit"${form.buttonClass === undefined ? '' : ` class="${form.buttonClass}"`}>${form.label}</button>\n</form>\n`;

/** Else unchanged: no script runs. */
export function withWebauthnScript(page: RenderedPage): RenderedPage {
  if (!page.html.includes(' data-webauthn=')) return page;
  return { ...page, html: page.html.replace('</body>', `${SCRIPT_ELEMENT}\n</body>`), scriptSources: SCRIPT_SOURCES };
}
