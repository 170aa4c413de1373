import { DEFAULT_BRANDING, type BrandingValue } from '../domain/branding/branding.ts';

/** Branding colours as the hosted pages use them: whatever a tenant picks, the text that results reads at WCAG AA. */

/** Validated again here: the value ends up inside a <style> element. */
const color = (value: string, fallback: string) => (/^#[0-9a-fA-F]{6}$/.test(value) ? value : fallback);

/** WCAG 2 relative luminance. */
function luminance(hex: string): number {
  const linear = (at: number) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(1) + 0.7152 * linear(3) + 0.0722 * linear(5);
}

/** WCAG 2 contrast ratio, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [lighter, darker] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/** WCAG 1.4.3 (AA): text against what is behind it. */
const AA_TEXT = 4.5;
const WHITE = '#ffffff';
const BLACK = '#000000';

function mix(from: string, to: string, share: number): string {
  const channel = (at: number) => {
    const start = parseInt(from.slice(at, at + 2), 16);
    const value = Math.round(start + (parseInt(to.slice(at, at + 2), 16) - start) * share);
    return value.toString(16).padStart(2, '0');
  };
  return `#${channel(1)}${channel(3)}${channel(5)}`;
}

/**
 * `chosen` if it reads at 4.5:1 on `background`, else moved towards black or white just far enough that it does,
 * keeping the brand's hue; the extreme itself reads (≥ 4.58:1 on any colour), so some step does.
 */
function readableOn(background: string, chosen: string): string {
  const extreme = contrastRatio(background, BLACK) >= contrastRatio(background, WHITE) ? BLACK : WHITE;
  const steps = 20;
  for (let step = 0; step < steps; step += 1) {
    const candidate = mix(chosen, extreme, step / steps);
    if (contrastRatio(background, candidate) >= AA_TEXT) return candidate;
  }
  return extreme;
}

const labelOn = (fill: string) => (contrastRatio(fill, WHITE) >= AA_TEXT ? WHITE : BLACK);

const DANGER = '#b91c1c';

/**
 * A tenant may pick any colours (the API refuses none), so text colours are derived to read at WCAG AA: the button
 * keeps the primary as fill with a label computed to read on it; other colours stay unless they would not read.
 */
export function colorVariables(colors: BrandingValue['colors']): string {
  const defaults = DEFAULT_BRANDING.colors;
  const primary = color(colors.primary, defaults.primary);
  const background = color(colors.background, defaults.background);
  return (
    `:root{--gh-primary:${primary};--gh-background:${background};--gh-text:${readableOn(background, color(colors.text, defaults.text))};` +
    `--gh-on-primary:${labelOn(primary)};--gh-accent:${readableOn(background, primary)};--gh-danger:${readableOn(background, DANGER)}}`
  );
}
