import { BadRequestException, Injectable, UnauthorizedException } from '@nestjs/common';
import { UsersService } from 'src/modules/users/users.service';
import { LoginThrottle } from './login-throttle';
import { appMetrics } from 'src/common/metrics/metrics';
import { verifyPassword } from 'src/modules/users/password';
import type { SignIn } from './session.service';

export const INVALID_LOGIN = 'Invalid username or password.';

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
      this.throttle.assertAllowed(key);
    } catch (error) {
      signIns.inc({ result: 'throttled' });
      throw error;
    }
    const passwordOk = await verifyPassword(password, candidate?.passwordHash);
    if (!candidate || !passwordOk || candidate.privLevel <= 0 || candidate.roleName === 'disallowed') {
      this.throttle.recordFailure(key);
      signIns.inc({ result: 'failure' });
      throw new UnauthorizedException(INVALID_LOGIN);
    }
    this.throttle.recordSuccess(key);
    signIns.inc({ result: 'success' });
    await this.users.markAuthenticated(candidate.id);
    return {
      username: candidate.username,
      userId: candidate.id,
      generation: candidate.sessionGeneration,
    };
  }
}
