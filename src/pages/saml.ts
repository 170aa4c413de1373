import { document, escapeHtml, hidden, text, type PageLook, type RenderedPage } from './pages.ts';

export interface UnsolicitedConfirmationInput {
  readonly action: string;
  readonly csrf: string;
  /** Sealed to the interaction the page belongs to. */
  readonly proof: string;
  readonly email: string;
  readonly provider: string;
}

/** An IdP-initiated identity waits for the user's word (Continue, or Cancel: the sign-in page instead). */
export function unsolicitedConfirmationPage(look: PageLook, nonce: string, input: UnsolicitedConfirmationInput): RenderedPage {
  const values = { email: input.email, provider: input.provider };
  const body =
    `<h1>${text(look, 'saml.confirmTitle', values)}</h1>\n<p>${text(look, 'saml.confirmText', values)}</p>\n` +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('csrf', input.csrf)}${hidden('proof', input.proof)}` +
    `<button type="submit" name="continue" value="yes">${text(look, 'saml.confirmSubmit', values)}</button>\n` +
    `<button type="submit" class="secondary" name="cancel" value="yes">${text(look, 'saml.confirmCancel')}</button>\n</form>\n`;
  return document(look, nonce, text(look, 'saml.confirmTitle', values), body);
}
