import {
  PASSWORD_IS_USERNAME,
  PASSWORD_TOO_COMMON,
  PASSWORD_TOO_SHORT,
  PASSWORDS_DIFFER,
  goodPasswordProblem,
  passwordProblem,
} from './password-rules';

describe('passwordProblem', () => {
  it('accepts a long, unusual password typed twice alike', () => {
    expect(passwordProblem('alice', 'correct horse battery', 'correct horse battery')).toBeUndefined();
  });

  it.each([
    ['short', 'short', PASSWORD_TOO_SHORT],
    ['1234567', '1234567', PASSWORD_TOO_SHORT],
    ['alice-the-user', 'alice-the-user', PASSWORD_IS_USERNAME],
    ['password', 'password', PASSWORD_TOO_COMMON],
    ['Password1', 'Password1', PASSWORD_TOO_COMMON],
    ['a-fine-password', 'another-password', PASSWORDS_DIFFER],
  ])('refuses %s (confirmed as %s)', (password, confirmation, problem) => {
    expect(passwordProblem('alice-the-user', password, confirmation)).toBe(problem);
  });

  it('accepts a password sent without a confirmation (the 4.x and 5.0 user types have none)', () => {
    expect(passwordProblem('alice', 'correct horse battery', undefined)).toBeUndefined();
    expect(passwordProblem('alice', 'correct horse battery', null)).toBeUndefined();
  });

  it('checks the length before anything else', () => {
    expect(passwordProblem('abc', 'abc', undefined)).toBe(PASSWORD_TOO_SHORT);
  });
});

describe('goodPasswordProblem (the 3.x PUT user/current)', () => {
  it('checks the length and the common passwords only', () => {
    expect(goodPasswordProblem('short')).toBe(PASSWORD_TOO_SHORT);
    expect(goodPasswordProblem('Password1')).toBe(PASSWORD_TOO_COMMON);
    expect(goodPasswordProblem('alice-the-user')).toBeUndefined();
  });
});
