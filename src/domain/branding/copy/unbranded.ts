import type { CopyKey } from './catalog.ts';

/** Texts of the pages answered where no application's look is known (unbrandedErrorPage, their only way out): a sign-in
 *  opened at another host, an address of no surface, a logout on a surface of several applications. No branding reaches
 *  them, so the API refuses them. */
const UNBRANDED = ['error.misdirected', 'error.unknownSurface', 'refusal.logoutNoApplication', 'refusal.logoutDevice'] as const satisfies readonly CopyKey[];
export type UnbrandedCopyKey = (typeof UNBRANDED)[number];
export const UNBRANDED_COPY_KEYS: ReadonlySet<string> = new Set<CopyKey>(UNBRANDED);

/** The tenant picker's texts: shown before a tenant is chosen (decideTenant), so only in the application's look. */
export const APPLICATION_LOOK_COPY_KEYS: ReadonlySet<string> = new Set<CopyKey>(['tenant.title', 'tenant.label', 'tenant.submit', 'tenant.error']);
