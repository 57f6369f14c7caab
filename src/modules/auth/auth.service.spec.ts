import { HttpException, UnauthorizedException } from '@nestjs/common';
import type { AuthConfig } from 'src/config/auth.config';
import type { LoginCandidate, UsersService } from 'src/modules/users/users.service';
import { AuthService } from './auth.service';
import { LoginThrottle } from './login-throttle';
import { hashPassword } from 'src/modules/users/password';

describe('AuthService.login: the failure limit is kept per account', () => {
  const config = { loginMaxFailures: 3, loginWindowSeconds: 300 } as AuthConfig;
  let alice: LoginCandidate;

  beforeAll(async () => {
    alice = {
      id: 7,
      username: 'alice',
      passwordHash: await hashPassword('right-password'),
      roleName: 'read-only',
      privLevel: 10,
      sessionGeneration: 4,
    };
  });

  /** A database whose comparison of names is loose: it resolves any spelling of `alice` to her. */
  function service(): AuthService {
    const users = {
      findLoginCandidate: (name: string) =>
        Promise.resolve(name.trim().toLowerCase() === 'alice' ? alice : undefined),
      markAuthenticated: () => Promise.resolve(),
    } as unknown as UsersService;
    return new AuthService(users, new LoginThrottle(config));
  }

  const status = (attempt: Promise<unknown>) =>
    attempt.then(
      () => 200,
      (error: unknown) => (error instanceof HttpException ? error.getStatus() : 500),
    );

  it('refuses every name resolving to the account once it reached the limit', async () => {
    const auth = service();
    for (let i = 0; i < 3; i++) {
      await expect(auth.login('alice', 'wrong-password', '10.0.0.1')).rejects.toThrow(UnauthorizedException);
    }
    for (const spelling of ['alice', 'alice ', 'ALICE', ' Alice']) {
      expect(await status(auth.login(spelling, 'right-password', '10.0.0.1'))).toBe(429);
    }
    // Another client address has its own count.
    expect(await auth.login('alice ', 'right-password', '10.0.0.2')).toEqual({
      username: 'alice',
      userId: 7,
      generation: 4,
    });
  });

  it('counts failures of a name that resolves to no one by the name exactly as typed', async () => {
    const auth = service();
    for (let i = 0; i < 3; i++) {
      expect(await status(auth.login('bob', 'any-password', '10.0.0.1'))).toBe(401);
    }
    expect(await status(auth.login('bob', 'any-password', '10.0.0.1'))).toBe(429);
    expect(await status(auth.login('bob ', 'any-password', '10.0.0.1'))).toBe(401);
    expect(await status(auth.login('alice', 'right-password', '10.0.0.1'))).toBe(200);
  });
});
