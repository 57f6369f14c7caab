import { BadRequestException, Injectable, UnauthorizedException } from '@nestjs/common';
import { UsersService } from 'src/modules/users/users.service';
import { type AttemptOutcome, LoginThrottle } from './login-throttle';
import { appMetrics } from 'src/common/metrics/metrics';
import { verifyPassword } from 'src/modules/users/password';
import type { SignIn } from './session.service';

export const INVALID_LOGIN = 'Invalid username or password.';
export const INVALID_TOKEN = 'Invalid token. Please contact your administrator.';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly throttle: LoginThrottle,
  ) {}

  /**
   * Checks a user name and password (docs/original-behaviour.md#sign-in); returns whom the new
   * session names. Failures are limited per client address and account: the user the name resolves
   * to (the database compares names exactly), or for a name that resolves to no one the name exactly
   * as typed — so no other spelling of a name reaches an account past its limit.
   */
  async login(username: unknown, password: unknown, clientAddress: string): Promise<SignIn> {
    if (typeof username !== 'string' || typeof password !== 'string' || username === '' || password === '') {
      throw new BadRequestException('username and password are required');
    }
    const candidate = await this.users.findLoginCandidate(username);
    const key = candidate ? `${clientAddress}|user:${candidate.id}` : `${clientAddress}|name:${username}`;
    const signIns = appMetrics().signIns;
    try {
      await this.throttle.admit(key);
    } catch (error) {
      signIns.inc({ result: 'throttled' });
      throw error;
    }
    let outcome: AttemptOutcome = 'none';
    try {
      const passwordOk = await verifyPassword(password, candidate?.passwordHash);
      if (!candidate || !passwordOk || candidate.privLevel <= 0 || candidate.roleName === 'disallowed') {
        outcome = 'failure';
        signIns.inc({ result: 'failure' });
        throw new UnauthorizedException(INVALID_LOGIN);
      }
      outcome = 'success';
    } finally {
      this.throttle.end(key, outcome);
    }
    signIns.inc({ result: 'success' });
    await this.users.markAuthenticated(candidate.id);
    return {
      username: candidate.username,
      userId: candidate.id,
      generation: candidate.sessionGeneration,
    };
  }

  /**
   * POST user/login/token: the user whose registration or password-reset token this is, unless their
   * role is `disallowed` (or has no privileges), else 401 `Invalid token. Please contact your
   * administrator.`; the token is cleared by its sign-in (docs/decisions.md#d121). Failures are
   * limited per client address, like password sign-ins.
   */
  async loginWithToken(token: unknown, clientAddress: string): Promise<SignIn> {
    if (token !== undefined && typeof token !== 'string') {
      throw new BadRequestException('Invalid request: t must be a string');
    }
    const key = `${clientAddress}|token`;
    const signIns = appMetrics().signIns;
    try {
      await this.throttle.admit(key);
    } catch (error) {
      signIns.inc({ result: 'throttled' });
      throw error;
    }
    let outcome: AttemptOutcome = 'none';
    try {
      const candidate = token ? await this.users.findTokenCandidate(token) : undefined;
      if (
        !token ||
        !candidate ||
        candidate.privLevel <= 0 ||
        candidate.roleName === 'disallowed' ||
        !(await this.users.consumeToken(candidate.id, token))
      ) {
        outcome = 'failure';
        signIns.inc({ result: 'failure' });
        throw new UnauthorizedException(INVALID_TOKEN);
      }
      outcome = 'success';
      signIns.inc({ result: 'success' });
      return { username: candidate.username, userId: candidate.id, generation: candidate.sessionGeneration };
    } finally {
      this.throttle.end(key, outcome);
    }
  }
}
