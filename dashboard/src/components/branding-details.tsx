import type { Branding } from '../operations.ts';

/** The three colours in display order, with their labels. */
export const COLOURS = [
  ['primary', 'Primary colour'],
  ['background', 'Background colour'],
  ['text', 'Text colour'],
] as const;

/** A branding's values. The logo and favicon are shown as their URLs: the page's CSP loads nothing from elsewhere. */
export function BrandingDetails({ branding }: { branding: Branding }) {
  return (
    <dl className="details">
      {COLOURS.map(([key, label]) => (
        <div key={key}>
          <dt>{label}</dt>
          <dd>
            {/* An SVG fill, not a style attribute, which the CSP refuses. */}
            <svg className="swatch" viewBox="0 0 16 16" aria-hidden="true"><rect width="16" height="16" fill={branding.colors[key]} /></svg>
            <code>{branding.colors[key]}</code>
          </dd>
        </div>
      ))}
      <div>
        <dt>Sign-in title</dt>
        <dd>{branding.copy['login.title'] ?? 'Built-in wording'}</dd>
      </div>
      <div>
        <dt>Logo</dt>
        <dd>{branding.logoUrl ?? 'None'}</dd>
      </div>
      <div>
        <dt>Favicon</dt>
        <dd>{branding.faviconUrl ?? 'None'}</dd>
      </div>
    </dl>
  );
}
