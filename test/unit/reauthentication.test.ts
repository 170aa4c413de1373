import { describe, expect, it } from 'vitest';
import { reauthenticationOf } from '../../src/domain/sign-in/reauthentication.ts';

/** oidc-provider's login reasons (the integration tests in test/oauth/upstream-answers.test.ts run them for real). */
describe('reauthenticationOf', () => {
  const login = (...reasons: string[]) => ({ name: 'login', reasons });

  it('is fresh for prompt=login, and for a max_age an existing session fails; not for a max_age without a session', () => {
    expect(reauthenticationOf(login('login_prompt', 'no_session'), undefined)).toEqual({ fresh: true });
    expect(reauthenticationOf(login('max_age'), '60')).toEqual({ fresh: true, maxAge: 60 });
    expect(reauthenticationOf(login('no_session', 'max_age'), '60')).toEqual({ fresh: false, maxAge: 60 });
    expect(reauthenticationOf(login('no_session'), undefined)).toEqual({ fresh: false });
  });

  it('is never fresh at consent, where max_age is still passed on; takes no max_age that is not an integer', () => {
    expect(reauthenticationOf({ name: 'consent', reasons: ['op_scopes_missing'] }, '300')).toEqual({ fresh: false, maxAge: 300 });
    expect(reauthenticationOf(login('no_session'), 'soon')).toEqual({ fresh: false });
    expect(reauthenticationOf(login('no_session'), ['60'])).toEqual({ fresh: false });
  });
});
