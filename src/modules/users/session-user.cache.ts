import { Inject, Injectable } from '@nestjs/common';
import type { CurrentUser } from 'src/common/types/current-user';
import { authConfig, type AuthConfig } from 'src/config/auth.config';

/**
 * A short-lived, per-instance cache of signed-in users (role, level, permissions, tenant), so that a
 * burst of requests from one session costs one lookup rather than one per request. Writes to users
 * and roles on this instance invalidate it at once; other instances see such changes within
 * SESSION_CACHE_SECONDS (0 turns the cache off).
 */
@Injectable()
export class SessionUserCache {
  private readonly entries = new Map<string, { user: CurrentUser; expires: number }>();

  constructor(@Inject(authConfig.KEY) private readonly config: AuthConfig) {}

  get(username: string, now = Date.now()): CurrentUser | undefined {
    const entry = this.entries.get(username);
    if (!entry) {
      return undefined;
    }
    if (entry.expires <= now) {
      this.entries.delete(username);
      return undefined;
    }
    return entry.user;
  }

  set(user: CurrentUser, now = Date.now()): void {
    if (this.config.sessionCacheSeconds <= 0) {
      return;
    }
    if (this.entries.size >= 10_000) {
      this.entries.clear();
    }
    this.entries.set(user.username, { user, expires: now + this.config.sessionCacheSeconds * 1000 });
  }

  /** Forget everything: after a change to a user, a role or its permissions. */
  clear(): void {
    this.entries.clear();
  }
}
