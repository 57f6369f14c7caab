import { BadRequestException, Injectable, UnauthorizedException } from '@nestjs/common';
import { UsersService } from 'src/modules/users/users.service';
import { LoginThrottle } from './login-throttle';
import { verifyPassword } from './password';

export const INVALID_LOGIN = 'Invalid username or password.';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly throttle: LoginThrottle,
  ) {}

  /** Checks a user name and password (docs/original-behaviour.md#sign-in) and returns the user name. */
  async login(username: unknown, password: unknown, clientAddress: string): Promise<string> {
    if (typeof username !== 'string' || typeof password !== 'string' || username === '' || password === '') {
      throw new BadRequestException('username and password are required');
    }
    const key = `${clientAddress}|${username}`;
    this.throttle.assertAllowed(key);
    const candidate = await this.users.findLoginCandidate(username);
    const passwordOk = await verifyPassword(password, candidate?.passwordHash);
    if (!candidate || !passwordOk || candidate.privLevel <= 0 || candidate.roleName === 'disallowed') {
      this.throttle.recordFailure(key);
      throw new UnauthorizedException(INVALID_LOGIN);
    }
    this.throttle.recordSuccess(key);
    await this.users.markAuthenticated(candidate.id);
    return candidate.username;
  }
}
