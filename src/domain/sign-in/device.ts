/** A User-Agent as its owner would name the device ("Chrome" on "Windows"), null where unrecognisable. The client writes
 *  the header, so this informs a person and decides nothing. */
export interface DeviceSummary {
  readonly browser: string | null;
  readonly system: string | null;
}

/** First match wins: Edge, Opera and Samsung's browser also name Chrome and Safari, Chrome names Safari. */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

/** iPhone and iPad before macOS (iPadOS may claim "Macintosh"), Android before Linux. */
const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\bWindows (?:NT|Phone)\b/, 'Windows'],
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (userAgent: string, table: readonly (readonly [RegExp, string])[]) => table.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;

export function summarizeUserAgent(userAgent: string | null | undefined): DeviceSummary {
  if (userAgent === null || userAgent === undefined) return { browser: null, system: null };
  return { browser: first(userAgent, BROWSERS), system: first(userAgent, SYSTEMS) };
}
