import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-custom';
import type { CurrentUser } from 'src/common/types/current-user';
import { authConfig, type AuthConfig } from 'src/config/auth.config';
import { SessionUserCache } from 'src/modules/users/session-user.cache';
import { UsersService } from 'src/modules/users/users.service';
import { readSessionCookie, SessionCookieError, sessionCookieFrom } from './session-cookie';

export const SESSION_STRATEGY = 'session';
export const NOT_LOGGED_IN = 'unauthorized, please log in.';

/** Passport strategy: the signed `mojolicious` cookie → CurrentUser (docs/original-behaviour.md#sign-in). */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, SESSION_STRATEGY) {
  constructor(
    private readonly users: UsersService,
    private readonly cache: SessionUserCache,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
  ) {
    super();
  }

  async validate(req: Request): Promise<CurrentUser> {
    const value = sessionCookieFrom(req.headers.cookie);
    if (!value) {
      throw new UnauthorizedException(NOT_LOGGED_IN);
    }
    let username: string;
    try {
      username = readSessionCookie(this.config.sessionSecret, value);
    } catch (error) {
      if (error instanceof SessionCookieError) {
        throw new UnauthorizedException(error.message);
      }
      throw error;
    }
    const cached = this.cache.get(username);
    if (cached) {
      return cached;
    }
    const user = await this.users.findSessionUser(username);
    if (!user) {
      throw new UnauthorizedException('user not found');
    }
    this.cache.set(user);
    return user;
  }
}
