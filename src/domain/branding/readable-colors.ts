import type { BrandingColors } from './branding.ts';

/** Tenants may pick any colours (the API refuses none): what is drawn as text on them is derived to read at WCAG AA, on
 *  the hosted pages and in the built-in mails alike. */

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
export function readableOn(background: string, chosen: string): string {
  const extreme = contrastRatio(background, BLACK) >= contrastRatio(background, WHITE) ? BLACK : WHITE;
  const steps = 20;
  for (let step = 0; step < steps; step += 1) {
    const candidate = mix(chosen, extreme, step / steps);
    if (contrastRatio(background, candidate) >= AA_TEXT) return candidate;
  }
  return extreme;
}

/** A label on a `fill` of the brand's: white where white reads, else black. */
export const labelOn = (fill: string) => (contrastRatio(fill, WHITE) >= AA_TEXT ? WHITE : BLACK);

/** What reads on valid `#rrggbb` colours: the text and links (`accent`: the primary) on the background, a label on the primary. */
export interface ReadableColors {
  readonly text: string;
  readonly accent: string;
  readonly onPrimary: string;
}

export const readableColors = (colors: BrandingColors): ReadableColors => ({
  text: readableOn(colors.background, colors.text),
  accent: readableOn(colors.background, colors.primary),
  onPrimary: labelOn(colors.primary),
});
