import { describe, expect, it } from 'vitest';
import { sqlShape } from '../../src/observability/sql-shape.ts';

describe('sqlShape', () => {
  it('replaces every string constant with ?, leaving the statement and its numbers', () => {
    expect(sqlShape(`select * from api_key as k where k.secret_hash = 'q3L0x' and k.application_id = '0198-ab' limit 20`)).toBe(
      'select * from api_key as k where k.secret_hash = ? and k.application_id = ? limit 20',
    );
    expect(sqlShape(`insert into app_user (email, name) values ('o''brien@example.com', 'It''s me')`)).toBe('insert into app_user (email, name) values (?, ?)');
    expect(sqlShape(`update t set payload = '{"userCode":"BXHF"}'::jsonb where id = 'dc-1'`)).toBe('update t set payload = ?::jsonb where id = ?');
  });

  it('reads backslash escapes only in E strings, and dollar-quoted bodies whole', () => {
    expect(sqlShape(String.raw`select E'a\'b', 'C:\' as path`)).toBe('select ?, ? as path');
    expect(sqlShape('select $$it has \' a quote$$, $tag$ x $$ y $tag$')).toBe('select ?, ?');
  });

  it('keeps nothing of a text it cannot read to its end', () => {
    expect(sqlShape(`select 'secret`)).toBe('select');
    expect(sqlShape(`insert into t values ('a', $$b)`)).toBe('insert');
  });
});
