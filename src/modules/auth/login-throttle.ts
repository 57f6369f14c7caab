import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { authConfig, type AuthConfig } from 'src/config/auth.config';

interface Window {
  failures: number;
  resetAt: number;
}

/**
 * Limits failed sign-ins per user name and client address (docs/decisions.md#d25). Kept in the instance's
 * memory: each instance behind a load balancer limits on its own, which bounds guessing to
 * (instances × LOGIN_MAX_FAILURES) per window.
 */
@Injectable()
export class LoginThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(@Inject(authConfig.KEY) private readonly config: AuthConfig) {}

  assertAllowed(key: string, now = Date.now()): void {
    const window = this.windows.get(key);
    if (window && window.resetAt > now && window.failures >= this.config.loginMaxFailures) {
      throw new HttpException(
        'Too many failed login attempts; please try again later.',
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
  }

  recordFailure(key: string, now = Date.now()): void {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      this.prune(now);
      this.windows.set(key, { failures: 1, resetAt: now + this.config.loginWindowSeconds * 1000 });
    } else {
      window.failures++;
    }
  }

  recordSuccess(key: string): void {
    this.windows.delete(key);
  }

  private prune(now: number): void {
    if (this.windows.size < 10_000) {
      return;
    }
    for (const [key, window] of this.windows) {
      if (window.resetAt <= now) {
        this.windows.delete(key);
      }
    }
  }
}
