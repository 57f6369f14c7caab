export const ADMIN_PASSWORD = 'e2e-admin-password';
export const SESSION_SECRET = 'e2e-session-secret-of-at-least-32-characters';
/** Password given to every user the suites create. */
export const USER_PASSWORD = 'a-long-and-unusual-password-42';
