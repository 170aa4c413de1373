// One table per kind (policy-fields.ts, auth-provider-kinds.ts), from which inputs, drafts and the API's values derive.

export type SettingValue = string | number | boolean | null | readonly string[];
export type SettingValues = Readonly<Record<string, SettingValue>>;

/** What the form holds while it is typed: a checkbox's state, a text as typed, the boxes checked of a list. */
export type DraftValue = string | boolean | readonly string[];
export type SettingsDraft = Readonly<Record<string, DraftValue>>;

export interface Choice {
  readonly value: string;
  readonly label: string;
}

interface FieldBase {
  readonly name: string;
  readonly label: string;
  readonly hint?: string;
  /** Whether the field is shown and sent, given the others (e.g. an OAuth provider's endpoints for `generic` only). */
  readonly applies?: (draft: SettingsDraft) => boolean;
}

export type SettingField = FieldBase &
  (
    | { readonly kind: 'boolean'; readonly initial: boolean }
    /** An integer; empty sends null (a default, or "never" where the API says so). */
    | { readonly kind: 'number' }
    | { readonly kind: 'text'; readonly rows?: number }
    /** The first choice is the API's default. */
    | { readonly kind: 'choice'; readonly choices: readonly Choice[] }
    | { readonly kind: 'choices'; readonly choices: readonly Choice[]; readonly initial: readonly string[] }
    /** A list typed as words separated by spaces (OAuth scopes); empty sends null. */
    | { readonly kind: 'words' }
  );

export function applies(field: SettingField, draft: SettingsDraft): boolean {
  return field.applies === undefined || field.applies(draft);
}

function draftValue(field: SettingField, value: unknown): DraftValue {
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? value : field.initial;
    case 'choice':
      return typeof value === 'string' ? value : (field.choices[0]?.value ?? '');
    case 'choices':
      return Array.isArray(value) ? value.map(String) : field.initial;
    case 'words':
      return Array.isArray(value) ? value.join(' ') : '';
    default:
      return typeof value === 'number' || typeof value === 'string' ? String(value) : '';
  }
}

export function draftOf(fields: readonly SettingField[], values: object): SettingsDraft {
  const stored = new Map<string, unknown>(Object.entries(values));
  return Object.fromEntries(fields.map((field) => [field.name, draftValue(field, stored.get(field.name))]));
}

function valueOf(field: SettingField, value: DraftValue): SettingValue {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (field.kind === 'choice') return value;
  if (text === '') return null;
  if (field.kind === 'words') return text.split(/\s+/);
  // A number the browser could not read is sent as typed, for the server to name the field it refuses.
  if (field.kind === 'number') return Number.isFinite(Number(text)) ? Number(text) : text;
  return text;
}

/** The values of the fields that apply, as the API takes them; the server judges each. */
export function valuesOf(fields: readonly SettingField[], draft: SettingsDraft): SettingValues {
  const shown = fields.filter((field) => applies(field, draft));
  return Object.fromEntries(shown.map((field) => [field.name, valueOf(field, draft[field.name] ?? '')]));
}
