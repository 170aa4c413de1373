import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../src/domain/audit/actions.ts';

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
