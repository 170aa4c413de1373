import { document, formError, text, type PageLook, type RenderedPage } from './pages.ts';
import { webauthnForm } from './webauthn.ts';

/** Its address proven, the browser makes the passkey. */
export interface PasskeyCreateInput {
  readonly action: string;
  readonly csrf: string;
  readonly email: string;
  /** A fresh challenge each time the page is shown. */
  readonly options: unknown;
  readonly error?: boolean;
}

export function passkeyCreatePage(look: PageLook, nonce: string, input: PasskeyCreateInput): RenderedPage {
  const error = input.error === true ? text(look, 'passkeySignup.createError') : undefined;
  const body =
    `<h1>${text(look, 'passkeySignup.createTitle')}</h1>\n<p class="subtitle">${text(look, 'passkeySignup.createText', { email: input.email })}</p>\n` +
    formError('form-error', error) +
    webauthnForm({ action: input.action, csrf: input.csrf, ceremony: 'create', options: input.options, label: text(look, 'passkeySignup.createSubmit') });
  return document(look, nonce, text(look, 'passkeySignup.createTitle'), body, error !== undefined);
}
