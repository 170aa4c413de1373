import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, NAMED_ACTORS } from '../../src/domain/audit/actions.ts';

/** docs/audit.md lists the audit actions as the code's one table has them: the same actions, kinds and meanings. */
describe('the audit actions', () => {
  it('are documented as the table in code has them', () => {
    const documented = readFileSync(new URL('../../docs/audit.md', import.meta.url), 'utf8')
      .split('\n')
      .flatMap((line) => {
        const row = /^\| `([a-z0-9_.]+)` \| (write|event) \| (.+) \|$/.exec(line);
        return row === null ? [] : [[row[1]!, { kind: row[2]!, meaning: row[3]! }] as const];
      });
    expect(Object.fromEntries(documented)).toEqual(AUDIT_ACTIONS);
    expect(documented).toHaveLength(Object.keys(AUDIT_ACTIONS).length);
  });
});

/** The `actor` filter refuses every id that is neither a UUID nor one of NAMED_ACTORS: each name src/ writes must be there. */
describe('the actors named rather than by a UUID', () => {
  it('hold every literal actor id the service writes', () => {
    const root = new URL('../../src/', import.meta.url);
    const written = new Set<string>();
    for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'))) {
      const text = readFileSync(new URL(file, root), 'utf8');
      const patterns = [/type: 'system', id: '([^']+)'/g, /actorId: '([^']+)'/g, /'system', '([^']+)'/g, /id: attempt.providerId \?\? '([^']+)'/g];
      for (const pattern of patterns) for (const [, id] of text.matchAll(pattern)) if (!file.endsWith('actions.ts')) written.add(id!);
    }
    expect(written.size).toBeGreaterThan(8);
    expect([...written].filter((id) => !NAMED_ACTORS.has(id))).toEqual([]);
  });
});
