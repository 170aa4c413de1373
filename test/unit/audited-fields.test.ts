import { describe, expect, it } from 'vitest';
import { auditedFieldsOf, auditedSnapshot } from '../../src/domain/audit/audited-fields.ts';

interface Thing {
  name: string;
  ownerId?: string | null;
  tags: string[];
  revokedAt?: Date | null;
  secret: string | null;
}

const field = auditedFieldsOf<Thing>();
const THING = auditedSnapshot([
  field.value('name'),
  field.value('ownerId', 'owner'),
  field.list('tags'),
  field.instant('revokedAt'),
  field.derived('hasSecret', (thing) => thing.secret !== null, (sqlOf) => `${sqlOf('secret')} is not null`),
]);

describe('an audited snapshot', () => {
  it('reads each field of the entity under its key, absent values as null, a Date as JSON writes it', () => {
    const thing: Thing = { name: 'one', tags: ['a'], revokedAt: new Date('2026-01-02T03:04:05.006Z'), secret: 's' };
    expect(THING.of(thing)).toEqual({ name: 'one', owner: null, tags: ['a'], revokedAt: '2026-01-02T03:04:05.006Z', hasSecret: true });
  });

  it('copies lists, so a before does not follow the entity’s later changes', () => {
    const thing: Thing = { name: 'one', tags: ['a'], secret: null };
    const before = THING.of(thing);
    thing.tags.push('b');
    expect(before.tags).toEqual(['a']);
  });

  it('writes the same keys in SQL from the row’s snake-case columns, a column given elsewhere read from there', () => {
    expect(THING.sql('r', { owner_id: 'old.owner_id' })).toBe(
      `jsonb_build_object('name', r.name, 'owner', old.owner_id, 'tags', to_jsonb(r.tags), ` +
        `'revokedAt', to_char(r.revoked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'hasSecret', r.secret is not null)`,
    );
  });
});
