import type { CopyKey } from './catalog.ts';

/** Texts of pages no branding reaches: the misdirected sign-in (src/http/public-host.ts) is answered before any
 *  application is known, in the plain look. A copy override of them would be stored for nothing, so it is refused. */
export const UNBRANDED_COPY_KEYS: ReadonlySet<string> = new Set<CopyKey>(['error.misdirected']);

/** The tenant picker's texts: it is shown only while no tenant is chosen (decideTenant), in the application's look, so a
 *  tenant's override of them would be stored for nothing. */
export const APPLICATION_LOOK_COPY_KEYS: ReadonlySet<string> = new Set<CopyKey>(['tenant.title', 'tenant.label', 'tenant.submit', 'tenant.error']);
