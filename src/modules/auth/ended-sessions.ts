import { Inject, Injectable } from '@nestjs/common';
import { classifyDbError } from 'src/common/database/db-error';
import { UnitOfWork } from 'src/common/database/unit-of-work';
import { SessionUserCache } from 'src/common/auth/session-user.cache';
import { authConfig, type AuthConfig } from 'src/config/auth.config';
import { AuthRepository } from './auth.repository';
import { SESSION_SECONDS } from './session-cookie';

/** Clocks of the instances may differ by this much (seconds) without an ended session coming back. */
const CLOCK_MARGIN_SECONDS = 300;

/**
 * The sessions signed out one by one (docs/decisions.md#d115). A session's cookies are refused once
 * its id is recorded here: at once on the instance that ended it, within SESSION_CACHE_SECONDS on
 * the others (the signed-in user's cached lookup carries the user's ended sessions). A record is
 * kept until no cookie of the session can be unexpired — its last renewal happened at the latest
 * SESSION_CACHE_SECONDS after it ended, on an instance that had not seen it yet — and pruned by the
 * next sign-out, so the table holds at most the sign-outs of the last hour or so.
 */
@Injectable()
export class EndedSessions {
  constructor(
    private readonly sessions: AuthRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly cache: SessionUserCache,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
  ) {}

  /** The user's ended sessions whose cookies could still be unexpired. */
  async of(userId: number, now = Date.now()): Promise<ReadonlySet<string>> {
    return new Set(await this.sessions.endedSessionIds(userId, Math.floor(now / 1000)));
  }

  /** Ends one session of the user; the records no cookie can need any more are pruned with it. */
  async end(userId: number, sessionId: string, now = Date.now()): Promise<void> {
    const second = Math.floor(now / 1000);
    const expires = second + SESSION_SECONDS + this.config.sessionCacheSeconds + CLOCK_MARGIN_SECONDS;
    await this.unitOfWork.run(async (manager) => {
      await this.sessions.pruneEnded(manager, second);
      try {
        await this.sessions.addEnded(manager, { sessionId, userId, expires });
      } catch (error) {
        // Ending it twice (two sign-outs with one cookie at once) is ending it.
        if (classifyDbError(error)?.kind !== 'unique') {
          throw error;
        }
      }
      this.cache.invalidate(manager);
    });
  }
}
