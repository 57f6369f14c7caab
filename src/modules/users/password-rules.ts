/**
 * Rules for a new password (docs/original-behaviour.md#users): at least 8 characters, not the user
 * name, not a common password, and, when a confirmation is sent, typed twice alike. The 4.x and 5.0
 * user types have no `confirmLocalPasswd`, so Apache's clients never send one (docs/decisions.md#d50a).
 * The texts are the original's where it has one.
 */
const COMMON_PASSWORDS = new Set([
  '12345678',
  '123456789',
  '1234567890',
  '87654321',
  '11111111',
  '00000000',
  '12341234',
  'password',
  'password1',
  'password12',
  'password123',
  'passw0rd',
  'p@ssw0rd',
  'qwertyui',
  'qwerty123',
  'qwertyuiop',
  'iloveyou',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'welcome1',
  'welcome123',
  'trustno1',
  'abcdefgh',
  'abcd1234',
  'letmein1',
  'superman',
  'starwars',
  'whatever',
  'admin123',
  'administrator',
  'changeme',
  'trafficops',
  'twelve12',
]);

export const PASSWORD_TOO_SHORT = 'Password must be greater than 7 characters.';
export const PASSWORD_TOO_COMMON = 'Password is too common.';
export const PASSWORD_IS_USERNAME = 'Username and password cannot be the same.';
export const PASSWORDS_DIFFER = "'confirmLocalPasswd' must match 'localPasswd'";

/**
 * The rules every new password keeps (length, not a common one): all the original checks on the 3.x
 * `PUT user/current`, which neither compares it with the user name nor with a confirmation.
 */
export function goodPasswordProblem(password: string): string | undefined {
  if (password.length < 8) {
    return PASSWORD_TOO_SHORT;
  }
  return COMMON_PASSWORDS.has(password.toLowerCase()) ? PASSWORD_TOO_COMMON : undefined;
}

/** The first rule the password breaks, or undefined when it is acceptable. */
export function passwordProblem(
  username: string,
  password: string,
  confirmation: string | undefined | null,
): string | undefined {
  if (password.length < 8) {
    return PASSWORD_TOO_SHORT;
  }
  if (password === username) {
    return PASSWORD_IS_USERNAME;
  }
  if (COMMON_PASSWORDS.has(password.toLowerCase())) {
    return PASSWORD_TOO_COMMON;
  }
  if (confirmation !== undefined && confirmation !== null && confirmation !== password) {
    return PASSWORDS_DIFFER;
  }
  return undefined;
}
