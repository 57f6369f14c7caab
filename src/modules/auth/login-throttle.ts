import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { authConfig, type AuthConfig } from 'src/config/auth.config';

interface Window {
  /** Failed attempts, and attempts still being checked (each counts as a failure until it succeeds). */
  failures: number;
  resetAt: number;
}

/**
 * Limits failed sign-ins per user name and client address (docs/decisions.md#d25). Kept in the process's
 * memory: each instance (each worker of an instance) behind a load balancer limits on its own, which
 * bounds guessing to (processes × LOGIN_MAX_FAILURES) per window.
 *
 * An attempt is counted when it starts (`admit`), before its password is checked, and forgotten with the
 * whole count when it succeeds: concurrent attempts cannot all pass the check before the first of them
 * has failed (docs/decisions.md#d185).
 */
@Injectable()
export class LoginThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(@Inject(authConfig.KEY) private readonly config: AuthConfig) {}

  /** Counts an attempt, or refuses it with 429 when the key has reached its limit in the window. */
  admit(key: string, now = Date.now()): void {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      this.prune(now);
      this.windows.set(key, { failures: 1, resetAt: now + this.config.loginWindowSeconds * 1000 });
      return;
    }
    if (window.failures >= this.config.loginMaxFailures) {
      throw new HttpException(
        'Too many failed login attempts; please try again later.',
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    window.failures++;
  }

  /** An admitted attempt succeeded: the key starts afresh. */
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
