import { isoTimestampSql } from './audit.ts';

/** A column of the audited row in SQL, or what a statement gives in its place (a `before` read from another row). */
export type ColumnSql = (column: string) => string;

export interface AuditedField<E> {
  readonly key: string;
  readonly of: (entity: E, now: Date) => unknown;
  readonly sql: (column: ColumnSql) => string;
}

const columnOf = (property: string) => property.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Fields of E's snapshot, each keyed by its property unless told, read from the column of that name in snake case. */
export function auditedFieldsOf<E>() {
  type Property = keyof E & string;
  return {
    /** As stored, absent as null. */
    value: (property: Property, key: string = property, column = columnOf(property)): AuditedField<E> => ({
      key,
      of: (entity) => entity[property] ?? null,
      sql: (sqlOf) => sqlOf(column),
    }),
    /** Copied, so that a `before` does not follow the entity's later changes. */
    list: (property: Property, key: string = property, column = columnOf(property)): AuditedField<E> => ({
      key,
      of: (entity) => [...(entity[property] as Iterable<unknown>)],
      sql: (sqlOf) => `to_jsonb(${sqlOf(column)})`,
    }),
    /** ISO 8601 in UTC with milliseconds, as JSON writes a Date. */
    instant: (property: Property, key: string = property, column = columnOf(property)): AuditedField<E> => ({
      key,
      of: (entity) => (entity[property] as Date | null | undefined)?.toISOString() ?? null,
      sql: (sqlOf) => isoTimestampSql(sqlOf(column)),
    }),
    derived: (key: string, of: (entity: E, now: Date) => unknown, sql: (sqlOf: ColumnSql) => string): AuditedField<E> => ({ key, of, sql }),
  };
}

export interface AuditedSnapshot<E> {
  /** What a change of one entity records. */
  readonly of: (entity: E, now?: Date) => Record<string, unknown>;
  /** The same as a `jsonb_build_object` of `row`, for set-based changes; `instead` gives columns read elsewhere. */
  readonly sql: (row: string, instead?: Readonly<Record<string, string>>) => string;
}

/** One list of fields for both, so the records of an entity's own change and of a set-based one cannot differ. */
export function auditedSnapshot<E>(fields: readonly AuditedField<E>[]): AuditedSnapshot<E> {
  return {
    of: (entity, now = new Date()) => Object.fromEntries(fields.map((field) => [field.key, field.of(entity, now)])),
    sql: (row, instead = {}) => {
      const sqlOf: ColumnSql = (column) => instead[column] ?? `${row}.${column}`;
      return `jsonb_build_object(${fields.map((field) => `'${field.key}', ${field.sql(sqlOf)}`).join(', ')})`;
    },
  };
}
