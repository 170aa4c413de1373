import { Migration0007EmailUnicodeKeys } from './0007-email-unicode-keys.ts';

/**
 * E-mail keys now make the lower-case letters of one case-folding class one (normalizeEmail: `ας` and `ασ`, `µ` and
 * `μ`). Rows keyed before are rekeyed as 0007 rekeyed them (only keys outside printable ASCII can differ), and as
 * there a row whose new key another user of its pool already holds keeps its old one.
 */
export class Migration0012EmailCaseFoldKeys extends Migration0007EmailUnicodeKeys {}
