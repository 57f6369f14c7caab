import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { authConfig, type AuthConfig } from 'src/config/auth.config';

interface Window {
  failures: number;
  /** Attempts admitted whose password is still being checked. */
  checking: number;
  /** Attempts waiting for one of those to end. */
  waiting: (() => void)[];
  resetAt: number;
}

/** How an admitted attempt ended: a wrong password (or token), a success, or neither (an error). */
export type AttemptOutcome = 'failure' | 'success' | 'none';

/**
 * Limits failed sign-ins per user name and client address (docs/decisions.md#d25). Kept in the process's
 * memory: each instance (each worker of an instance) behind a load balancer limits on its own, which
 * bounds guessing to (processes × LOGIN_MAX_FAILURES) per window.
 *
 * No more attempts are checked at a time than the failures left before the limit: the others wait
 * for those to end (docs/decisions.md#d185). So concurrent wrong attempts cannot all pass the limit
 * before the first of them has failed, and concurrent right ones are never refused for it.
 */
@Injectable()
export class LoginThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(@Inject(authConfig.KEY) private readonly config: AuthConfig) {}

  /**
   * Admits an attempt (which must then be ended with `end`), after those in flight when the key has
   * no failure to spare for it; 429 when the key has reached its limit in the window.
   */
  async admit(key: string, now = Date.now): Promise<void> {
    for (;;) {
      const window = this.window(key, now());
      if (window.failures >= this.config.loginMaxFailures) {
        this.forgetIfIdle(key, window);
        throw new HttpException(
          'Too many failed login attempts; please try again later.',
          HttpStatus.TOO_MANY_REQUESTS,
        );
      }
      if (window.failures + window.checking < this.config.loginMaxFailures) {
        window.checking++;
        return;
      }
      await new Promise<void>((resolve) => window.waiting.push(resolve));
    }
  }

  /** Ends an admitted attempt: a failure counts, a success starts the key afresh. */
  end(key: string, outcome: AttemptOutcome): void {
    const window = this.windows.get(key);
    if (!window) {
      return;
    }
    window.checking--;
    if (outcome === 'failure') {
      window.failures++;
    } else if (outcome === 'success') {
      window.failures = 0;
    }
    // Those waiting look again (each either takes the freed place, waits again, or gets its 429).
    for (const wake of window.waiting.splice(0)) {
      wake();
    }
    this.forgetIfIdle(key, window);
  }

  private window(key: string, now: number): Window {
    let window = this.windows.get(key);
    if (window && window.resetAt <= now) {
      window.failures = 0;
      window.resetAt = now + this.config.loginWindowSeconds * 1000;
    }
    if (!window) {
      this.prune(now);
      window = {
        failures: 0,
        checking: 0,
        waiting: [],
        resetAt: now + this.config.loginWindowSeconds * 1000,
      };
      this.windows.set(key, window);
    }
    return window;
  }

  /** A key with no failure and nothing in flight needs no entry. */
  private forgetIfIdle(key: string, window: Window): void {
    if (window.failures === 0 && window.checking === 0 && window.waiting.length === 0) {
      this.windows.delete(key);
    }
  }

  private prune(now: number): void {
    if (this.windows.size < 10_000) {
      return;
    }
    for (const [key, window] of this.windows) {
      if (window.resetAt <= now && window.checking === 0 && window.waiting.length === 0) {
        this.windows.delete(key);
      }
    }
  }
}
