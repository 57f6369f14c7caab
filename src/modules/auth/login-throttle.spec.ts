import { HttpException } from '@nestjs/common';
import type { AuthConfig } from 'src/config/auth.config';
import { LoginThrottle } from './login-throttle';

describe('LoginThrottle', () => {
  const config = { loginMaxFailures: 3, loginWindowSeconds: 300 } as AuthConfig;

  const outcome = (attempt: Promise<void>) =>
    attempt.then(
      () => 'admitted',
      (error: unknown) => (error instanceof HttpException ? error.getStatus() : 'error'),
    );

  /** Settles pending promise callbacks. */
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('checks no more attempts at a time than the failures left, and refuses the rest once they failed', async () => {
    const throttle = new LoginThrottle(config);
    const results: (string | number)[] = [];
    const attempts = Array.from({ length: 5 }, (_, i) =>
      outcome(throttle.admit('k')).then((r) => (results[i] = r)),
    );
    await tick();
    expect(results.filter((r) => r === 'admitted')).toHaveLength(3);
    for (let i = 0; i < 3; i++) {
      throttle.end('k', 'failure');
    }
    await Promise.all(attempts);
    expect(results).toEqual(['admitted', 'admitted', 'admitted', 429, 429]);
  });

  it('lets waiting attempts through when one in flight succeeds, and never refuses right ones for the limit', async () => {
    const throttle = new LoginThrottle(config);
    const results: (string | number)[] = [];
    const attempts = Array.from({ length: 10 }, (_, i) =>
      outcome(throttle.admit('k')).then((r) => {
        results[i] = r;
        throttle.end('k', 'success');
      }),
    );
    await Promise.all(attempts);
    expect(results.every((r) => r === 'admitted')).toBe(true);
    // Nothing is left counted.
    for (let i = 0; i < 3; i++) {
      await throttle.admit('k');
      throttle.end('k', 'failure');
    }
    await expect(outcome(throttle.admit('k'))).resolves.toBe(429);
    await expect(outcome(throttle.admit('other'))).resolves.toBe('admitted');
  });

  it('does not count an attempt that ended in an error, and forgets failures after the window', async () => {
    const throttle = new LoginThrottle(config);
    let now = 1_000_000;
    for (let i = 0; i < 5; i++) {
      await throttle.admit('k', () => now);
      throttle.end('k', 'none');
    }
    for (let i = 0; i < 3; i++) {
      await throttle.admit('k', () => now);
      throttle.end('k', 'failure');
    }
    await expect(outcome(throttle.admit('k', () => now))).resolves.toBe(429);
    now += 300_000;
    await expect(outcome(throttle.admit('k', () => now))).resolves.toBe('admitted');
  });
});
