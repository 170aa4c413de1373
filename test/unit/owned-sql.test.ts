import { describe, expect, it } from 'vitest';
import { ownedSql } from '../../src/db/owned-sql.ts';

describe('ownedSql', () => {
  it('spells each @owner out and binds the owner where it stands among the other bindings', () => {
    expect(ownedSql('app', 'delete from mfa_factor where @owner and user_id = ?', ['u'])).toEqual({
      sql: 'delete from mfa_factor where application_id = ? and user_id = ?',
      params: ['app', 'u'],
    });
    expect(ownedSql('app', 'select 1 from sign_in_failure as f where f.address = ? and @owner(f) and f.user_id = ?', ['a', 'u'])).toEqual({
      sql: 'select 1 from sign_in_failure as f where f.address = ? and f.application_id = ? and f.user_id = ?',
      params: ['a', 'app', 'u'],
    });
    expect(ownedSql('app', 'with a as (select 1 from x where @owner and id = ?) update y set z = ? where @owner(y)', ['i', 'z'])).toEqual({
      sql: 'with a as (select 1 from x where application_id = ? and id = ?) update y set z = ? where y.application_id = ?',
      params: ['app', 'i', 'z', 'app'],
    });
  });

  it('counts `??` as one binding and an escaped `\\?` as none', () => {
    expect(ownedSql('app', 'select ?? from t where data \\? ? and @owner', ['col', 'key']).params).toEqual(['col', 'key', 'app']);
  });

  it('refuses a statement that names no owner', () => {
    expect(() => ownedSql('app', 'delete from mfa_factor where user_id = ?', ['u'])).toThrow(/names no @owner/);
  });
});
