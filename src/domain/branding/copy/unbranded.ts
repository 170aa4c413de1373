import type { CopyKey } from './catalog.ts';

/** Texts of the misdirected sign-in page, answered before any application is known: no branding reaches them. */
export const UNBRANDED_COPY_KEYS: ReadonlySet<string> = new Set<CopyKey>(['error.misdirected']);

/** The tenant picker's texts: shown before a tenant is chosen (decideTenant), so only in the application's look. */
export const APPLICATION_LOOK_COPY_KEYS: ReadonlySet<string> = new Set<CopyKey>(['tenant.title', 'tenant.label', 'tenant.submit', 'tenant.error']);
