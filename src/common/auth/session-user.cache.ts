import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import type { CurrentUser } from 'src/common/types/current-user';
import { authConfig, type AuthConfig } from 'src/config/auth.config';

/**
 * A signed-in user as the session check needs it: who they are, their session generation, and the
 * ids of their sessions signed out one by one (whose cookies could still be unexpired).
 */
export interface SessionRecord {
  user: CurrentUser;
  generation: number;
  endedSessions: ReadonlySet<string>;
}

/**
 * A short-lived, per-instance cache of signed-in users (role, level, permissions, tenant, session
 * generation, ended sessions) by user id, so that a burst of requests from one session costs one lookup rather
 * than one per request. Writes to users and roles on this instance invalidate it at once (and
 * again when their transaction commits, so that no request reading in between keeps the old row);
 * other instances see such changes within SESSION_CACHE_SECONDS (0 turns the cache off).
 */
@Injectable()
export class SessionUserCache implements OnModuleInit {
  private readonly entries = new Map<number, { session: SessionRecord; expires: number }>();
  /** Transactions that changed users or roles and have not committed yet. */
  private readonly pending = new WeakSet<QueryRunner>();

  constructor(
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  onModuleInit(): void {
    const settled = (runner: QueryRunner): void => {
      if (!runner.isTransactionActive && this.pending.has(runner)) {
        this.pending.delete(runner);
        this.clear();
      }
    };
    const subscriber: EntitySubscriberInterface = {
      afterTransactionCommit: ({ queryRunner }) => settled(queryRunner),
      afterTransactionRollback: ({ queryRunner }) => settled(queryRunner),
    };
    this.dataSource.subscribers.push(subscriber);
  }

  get(userId: number, now = Date.now()): SessionRecord | undefined {
    const entry = this.entries.get(userId);
    if (!entry) {
      return undefined;
    }
    if (entry.expires <= now) {
      this.entries.delete(userId);
      return undefined;
    }
    return entry.session;
  }

  set(session: SessionRecord, now = Date.now()): void {
    if (this.config.sessionCacheSeconds <= 0) {
      return;
    }
    if (this.entries.size >= 10_000) {
      this.entries.clear();
    }
    this.entries.set(session.user.id, {
      session,
      expires: now + this.config.sessionCacheSeconds * 1000,
    });
  }

  /**
   * Forget everything after a change to a user, a role or its permissions: now, and once more when
   * the transaction of `manager` (if it is in one) commits or rolls back.
   */
  invalidate(manager?: EntityManager): void {
    this.clear();
    const runner = manager?.queryRunner;
    if (runner?.isTransactionActive) {
      this.pending.add(runner);
    }
  }

  private clear(): void {
    this.entries.clear();
  }
}
