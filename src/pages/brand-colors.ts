import { DEFAULT_BRANDING, type BrandingValue } from '../domain/branding/branding.ts';
import { readableColors, readableOn } from '../domain/branding/readable-colors.ts';

/** Branding colours as the hosted pages use them: whatever a tenant picks, the text that results reads at WCAG AA. */

/** Validated again here: the value ends up inside a <style> element. */
const color = (value: string, fallback: string) => (/^#[0-9a-fA-F]{6}$/.test(value) ? value : fallback);

const DANGER = '#b91c1c';

/**
 * A tenant may pick any colours (the API refuses none), so text colours are derived to read at WCAG AA: the button
 * keeps the primary as fill with a label computed to read on it; other colours stay unless they would not read.
 */
export function colorVariables(colors: BrandingValue['colors']): string {
  const defaults = DEFAULT_BRANDING.colors;
  const primary = color(colors.primary, defaults.primary);
  const background = color(colors.background, defaults.background);
  const readable = readableColors({ primary, background, text: color(colors.text, defaults.text) });
  return (
    `:root{--gh-primary:${primary};--gh-background:${background};--gh-text:${readable.text};` +
    `--gh-on-primary:${readable.onPrimary};--gh-accent:${readable.accent};--gh-danger:${readableOn(background, DANGER)}}`
  );
}
