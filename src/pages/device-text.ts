import type { DeviceSummary } from '../domain/sign-in/device.ts';
import { plainText, text, type CopyKey, type PageLook } from './pages.ts';

/** A device as "Chrome on Windows", never the User-Agent's text, which whoever signed in wrote. */
export function deviceText(look: PageLook, device: DeviceSummary, unknown: CopyKey = 'email.unknownDevice'): string {
  if (device.browser === null && device.system === null) return text(look, unknown);
  return text(look, 'email.device', {
    browser: device.browser ?? plainText(look, 'email.someBrowser'),
    system: device.system ?? plainText(look, 'email.someSystem'),
  });
}
