/**
 * The drafts a session ended on, when the operator did not sign out (a renewal refused): kept in the tab's sessionStorage
 * for the same operator's next sign-in, which restores each into its form. Never a secret (`KeepAs.withoutSecrets`), never
 * shown to another operator (their sign-in drops them), dropped on a sign-out, and expired after an hour.
 */

/** How a form's draft is kept: its name on its page (the page and tenant are added), and its secrets blanked. */
export interface KeepAs<T> {
  readonly name: string;
  /** The draft without what the operator typed as a secret: sessionStorage is no place for one. */
  readonly withoutSecrets?: (draft: T) => T;
}

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
  readonly drafts: Record<string, KeptDraft>;
}

const KEPT_KEY = 'gatehouse.dashboard.kept-drafts';
const KEPT_FOR_MS = 60 * 60 * 1000;

// The forms holding edits now, each read as the session ends.
const live = new Map<symbol, () => readonly [string, KeptDraft]>();

/** Registers a form holding edits; returns its removal. */
export function liveDraft(read: () => readonly [string, KeptDraft]): () => void {
  const form = Symbol('kept draft');
  live.set(form, read);
  return () => live.delete(form);
}

const ownerOf = (owner: DraftOwner) => `${owner.organizationId}/${owner.subject}`;

/** Keeps the forms' drafts as the session of `owner` ends unasked, beside those kept before and not restored yet. */
export function keepDrafts(owner: DraftOwner): void {
  if (live.size === 0 || owner.subject === '') return;
  const drafts = { ...keptFor(owner)?.drafts, ...Object.fromEntries([...live.values()].map((read) => read())) };
  const kept: KeptDrafts = { owner: ownerOf(owner), keptAt: Date.now(), drafts };
  sessionStorage.setItem(KEPT_KEY, JSON.stringify(kept));
}

export function dropKeptDrafts(): void {
  sessionStorage.removeItem(KEPT_KEY);
}

/** The drafts kept for `owner`; those of another operator, or expired, are dropped. */
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

export function findKeptDraft(owner: DraftOwner, key: string): KeptDraft | null {
  return keptFor(owner)?.drafts[key] ?? null;
}

/** Once restored into its form, a draft is the form's: a reload does not restore it again. */
export function takeKeptDraft(owner: DraftOwner, key: string): void {
  const kept = keptFor(owner);
  if (kept === null || !Object.hasOwn(kept.drafts, key)) return;
  const drafts = Object.fromEntries(Object.entries(kept.drafts).filter(([name]) => name !== key));
  if (Object.keys(drafts).length === 0) dropKeptDrafts();
  else sessionStorage.setItem(KEPT_KEY, JSON.stringify({ ...kept, drafts }));
}
