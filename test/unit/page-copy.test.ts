import { describe, expect, it } from 'vitest';
import { DEFAULT_BRANDING } from '../../src/domain/branding/branding.ts';
import { totpSetup } from '../../src/pages/mfa.ts';
import { PLAIN_LOOK, text, type PageLook } from '../../src/pages/pages.ts';

/** A branding's copy is text on every page: what it holds is shown as typed, never read as markup or a pattern. */
const lookWith = (copy: Record<string, string>): PageLook => ({ ...PLAIN_LOOK, branding: { ...DEFAULT_BRANDING, copy } });

describe('copy on the pages', () => {
  it('the QR code’s label holds $ patterns as typed: the code’s markup is neither repeated nor split', () => {
    const look = lookWith({ 'mfa.qrLabel': "Scan $' then $& then $` for {name}" });
    const html = totpSetup(look, { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Acme:ada?secret=JBSWY3DPEHPK3PXP&issuer=Acme', sealed: 'x' });
    expect(html.match(/<svg/g)).toHaveLength(1);
    expect(html.match(/<\/svg>/g)).toHaveLength(1);
    expect(html).toContain(`<svg role="img" aria-label="${text(look, 'mfa.qrLabel')}" `);
  });
});
