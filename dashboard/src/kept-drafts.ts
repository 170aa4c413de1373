/**
 * What a session ended on, when the operator did not sign out (a renewal refused): the forms' drafts and where the
 * operator was (`where:` names: the tenant viewed, the panel open, the form chosen), kept in the tab's sessionStorage for
 * the same operator's next sign-in, which restores each as its component mounts. Never a secret (`KeepAs.withoutSecrets`),
 * never shown to another operator (their sign-in drops them), dropped on a sign-out, and expired an hour after the last
 * session ended.
 */

/** How a form's draft is kept: its name on its page (the page and tenant are added), and its secrets blanked. */
export interface KeepAs<T> {
  readonly name: string;
  /** The draft without what the operator typed as a secret: sessionStorage is no place for one. */
  readonly withoutSecrets?: (draft: T) => T;
}

/** A form's draft as kept. */
export interface KeptDraft {
  /** The stored value the draft was made from: a newer one makes the restored draft outdated, as any draft. */
  readonly base: unknown;
  readonly draft: unknown;
  /** A secret was typed and not kept: the form says to type it again. */
  readonly secretsDropped: boolean;
}

/** Whose drafts, as the session says: the organization's console and the operator's subject. */
export interface DraftOwner {
  readonly organizationId: string;
  readonly subject: string;
}

interface KeptDrafts {
  readonly owner: string;
  readonly keptAt: number;
  /** By key (`useKeptKey`): a form's `KeptDraft`, or a place's value. */
  readonly drafts: Record<string, unknown>;
}

const KEPT_KEY = 'gatehouse.dashboard.kept-drafts';
const KEPT_FOR_MS = 60 * 60 * 1000;

// The forms holding edits and the places left, each read as the session ends.
const live = new Map<symbol, () => readonly [string, unknown]>();

/** Registers what to keep if the session ends now; returns its removal. */
export function liveDraft(read: () => readonly [string, unknown]): () => void {
  const form = Symbol('kept draft');
  live.set(form, read);
  return () => live.delete(form);
}

const ownerOf = (owner: DraftOwner) => `${owner.organizationId}/${owner.subject}`;

/** Keeps what the session of `owner` ends on, beside what an earlier end kept and no component restored yet: a component
 *  mounted restored its own as it mounted, so what it holds now is newer. */
export function keepDrafts(owner: DraftOwner): void {
  if (owner.subject === '') return;
  const drafts = { ...keptFor(owner)?.drafts, ...Object.fromEntries([...live.values()].map((read) => read())) };
  if (Object.keys(drafts).length === 0) return;
  const kept: KeptDrafts = { owner: ownerOf(owner), keptAt: Date.now(), drafts };
  sessionStorage.setItem(KEPT_KEY, JSON.stringify(kept));
}

export function dropKeptDrafts(): void {
  sessionStorage.removeItem(KEPT_KEY);
}

/** What is kept for `owner`; another operator's, or expired, is dropped. */
function keptFor(owner: DraftOwner): KeptDrafts | null {
  const stored = sessionStorage.getItem(KEPT_KEY);
  if (stored === null) return null;
  const kept = JSON.parse(stored) as KeptDrafts;
  if (kept.owner === ownerOf(owner) && Date.now() - kept.keptAt < KEPT_FOR_MS) return kept;
  dropKeptDrafts();
  return null;
}

/** Called as an operator signs in or renews: another operator's drafts go at once, not merely unshown. */
export function settleKeptDrafts(owner: DraftOwner): void {
  keptFor(owner);
}

/** What is kept for `owner` under `key`, undefined if nothing is. */
export function findKeptDraft(owner: DraftOwner, key: string): unknown {
  const drafts = keptFor(owner)?.drafts;
  return drafts !== undefined && Object.hasOwn(drafts, key) ? drafts[key] : undefined;
}

/** Once restored into its component, what was kept is the component's: a reload does not restore it again. */
export function takeKeptDraft(owner: DraftOwner, key: string): void {
  const kept = keptFor(owner);
  if (kept === null || !Object.hasOwn(kept.drafts, key)) return;
  const drafts = Object.fromEntries(Object.entries(kept.drafts).filter(([name]) => name !== key));
  if (Object.keys(drafts).length === 0) dropKeptDrafts();
  else sessionStorage.setItem(KEPT_KEY, JSON.stringify({ ...kept, drafts }));
}
