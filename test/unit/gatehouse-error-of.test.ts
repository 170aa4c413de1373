import { ForeignKeyConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { gatehouseErrorOf } from '../../src/gatehouse-error-of.ts';

/** The driver's error as `pg` raises it (a deferred constraint at commit reaches us so, unconverted by MikroORM). */
const driverError = (code: string, constraint: string) =>
  Object.assign(new Error(`duplicate key value violates unique constraint "${constraint}"`), { code, constraint, detail: 'Key (email)=(ada@example.com) already exists.' });

describe('gatehouseErrorOf: database refusals', () => {
  it('a unique key taken outside `uniquely` is 409 already_exists, saying neither the constraint nor its values', () => {
    const raw = driverError('23505', 'app_user_email_key');
    for (const error of [raw, new UniqueConstraintViolationException(raw), new Error('in another protocol’s words', { cause: raw })]) {
      const refusal = gatehouseErrorOf(error);
      expect(refusal).toMatchObject({ code: 'already_exists', message: 'A record with these values was written meanwhile' });
      expect(refusal!.field).toBeUndefined();
    }
  });

  it('a foreign key broken is 404; anything else is not a refusal (an internal error)', () => {
    const raw = driverError('23503', 'role_assignment_role_fk');
    expect(gatehouseErrorOf(raw)?.code).toBe('not_found');
    expect(gatehouseErrorOf(new ForeignKeyConstraintViolationException(raw))?.code).toBe('not_found');
    expect(gatehouseErrorOf(driverError('23514', 'a_check'))).toBeUndefined();
    expect(gatehouseErrorOf(new Error('boom'))).toBeUndefined();
  });
});
